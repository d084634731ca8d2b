import { scrapeMetrics } from "./metrics-scrape";

/**
 * weir's own view of a bench row, from two scrapes of /api/metrics: garbage collection
 * (prom-client's nodejs_gc_duration_seconds, by kind) and the event-loop delay histogram.
 */
export interface RuntimeSample {
  at: number;
  gcCount: number;
  gcSeconds: number;
  /** GC runs over 10 ms (prom-client's bucket bounds: 1, 10, 100 ms...). */
  gcOver10ms: number;
  /** Cumulative event-loop delay bucket counts by upper bound, seconds. */
  loopDelay: Map<number, number>;
}

export async function scrapeRuntime(url: string, token: string): Promise<RuntimeSample> {
  const samples = await scrapeMetrics(url, token);
  const sample: RuntimeSample = { at: performance.now(), gcCount: 0, gcSeconds: 0, gcOver10ms: 0, loopDelay: new Map() };
  for (const { name, labels, value } of samples) {
    const le = labels.le;
    if (name === "weir_nodejs_gc_duration_seconds_count") sample.gcCount += value;
    else if (name === "weir_nodejs_gc_duration_seconds_sum") sample.gcSeconds += value;
    else if (name === "weir_nodejs_gc_duration_seconds_bucket" && le === "0.01") sample.gcOver10ms -= value;
    else if (name === "weir_event_loop_delay_seconds_bucket" && le !== undefined) sample.loopDelay.set(le === "+Inf" ? Infinity : Number(le), value);
  }
  // Runs over 10 ms: all runs less those within 10 ms (subtracted above per kind).
  sample.gcOver10ms += sample.gcCount;
  return sample;
}

export function runtimeDelta(before: RuntimeSample, after: RuntimeSample) {
  const seconds = (after.at - before.at) / 1000;
  const bounds = [...after.loopDelay.keys()].sort((a, b) => a - b);
  const counts = bounds.map((le) => (after.loopDelay.get(le) ?? 0) - (before.loopDelay.get(le) ?? 0));
  const total = counts.at(-1) ?? 0;
  const p99At = bounds[counts.findIndex((count) => count >= 0.99 * total)] ?? Number.NaN;
  const delta = {
    gcPerSecond: (after.gcCount - before.gcCount) / seconds,
    gcMsPerSecond: ((after.gcSeconds - before.gcSeconds) * 1000) / seconds,
    longGcPauses: after.gcOver10ms - before.gcOver10ms,
    /** Upper bound of the bucket holding the p99 of event-loop delay. */
    loopDelayP99Ms: p99At * 1000,
  };
  return {
    ...delta,
    describe: `${delta.gcPerSecond.toFixed(1)}/s, ${delta.gcMsPerSecond.toFixed(1)} ms/s, ${delta.longGcPauses} over 10 ms; event-loop delay p99 <= ${delta.loopDelayP99Ms.toFixed(1)} ms`,
  };
}
