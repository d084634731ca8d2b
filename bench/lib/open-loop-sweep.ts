import type { SweepPoint } from "./open-loop-chart";
import type { GeneratorResult } from "./open-loop";
import { sleep } from "./cli";
import { sampleValue, scrapeMetrics } from "./metrics-scrape";
import { describeRun } from "./open-loop-drive";

export interface SweepTarget {
  label: string;
  drive: (rate: number) => Promise<GeneratorResult>;
}

/**
 * Offered load from light to past capacity, then back to half of it at once: the last point
 * shows whether the queue built in the overload drains without a latency cliff. Several servers
 * take turns at each step (their order alternating), so drift on a shared box falls on all of
 * them alike; each one's heaviest step is followed by its own recovery step.
 */
const REST_MS = 3000;
export async function sweepLoad(capacity: number, shares: number[], targets: SweepTarget[]): Promise<SweepPoint[][]> {
  const points: SweepPoint[][] = targets.map(() => []);
  const measure = async (t: number, share: number, recovery = false) => {
    const r = await targets[t]!.drive(Math.max(50, Math.round(capacity * share)));
    const shed = (r.statuses["503"] ?? 0) / Math.max(1, r.all.count);
    console.log(`  ${targets[t]!.label}: ${recovery ? "recovery " : ""}${Math.round(share * 100)} % of capacity: ${describeRun(r)}; p99 of 503s ${r.shed.count ? r.shed.p99.toFixed(1) : "-"} ms`);
    points[t]!.push({ share, offered: r.offered, achieved: r.achieved, p50: r.all.p50, p99: r.all.p99, shed, recovery });
  };
  const order = (step: number) => (step % 2 === 0 ? targets.map((_, t) => t) : targets.map((_, t) => targets.length - 1 - t));
  for (const [step, share] of shares.slice(0, -1).entries()) for (const t of order(step)) await measure(t, share);
  for (const t of order(shares.length - 1)) {
    // Each heaviest step starts from a drained box, not from the other server's step or its own.
    await sleep(REST_MS);
    await measure(t, shares.at(-1)!);
    await measure(t, 0.5, true);
  }
  return points;
}

/** One sweep point as "p50 / p99 ms, N % 503" for the report. */
export const describePoint = (p: SweepPoint) => `${p.p50.toFixed(1)} / ${p.p99.toFixed(1)} ms, ${(p.shed * 100).toFixed(1)} % 503`;

/** Scrapes weir's own view of the run: how often the event loop and the pool made requests wait. */
export async function scrapeWaits(url: string, token: string): Promise<string> {
  const samples = await scrapeMetrics(url, token);
  const sample = (name: string, labels?: Record<string, string>) => sampleValue(samples, name, labels);
  const over = (metric: string, le: string) => {
    const count = sample(`${metric}_count`);
    return `${(((count - sample(`${metric}_bucket`, { le })) / count) * 100).toFixed(2)} % of ${count} over ${Number(le) * 1000} ms`;
  };
  return `event-loop delay ${over("weir_event_loop_delay_seconds", "0.01")}; pool wait ${over("weir_db_pool_wait_seconds", "0.001")}; concurrency limit ${sample("weir_http_concurrency_limit")}, in flight ${sample("weir_http_requests_in_flight")} (shed so far ${sample("weir_http_shed_total")}, no-load latency ${(sample("weir_http_no_load_latency_seconds") * 1000).toFixed(2)} ms)`;
}
