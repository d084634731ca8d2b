// autocannon's own histogram (installed with it): HDR, 3 significant digits, values in microseconds.
import * as hdr from "hdr-histogram-js";
import { seededRandom } from "@/lib/seeded-random";
import { RawPool } from "./raw-http";

export interface LatencySummary {
  count: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export interface GeneratorResult {
  /** Requests per second asked for (open loop), or 0 for a closed loop. */
  offered: number;
  sent: number;
  seconds: number;
  /** Answers per second: requests due in the measured window over the time until the last one was answered. */
  achieved: number;
  /** Every answer, whatever its status; errors and timeouts count at the time they failed. */
  all: LatencySummary;
  /** 2xx answers only. */
  ok: LatencySummary;
  /** 503 answers only: weir shedding load. */
  shed: LatencySummary;
  /** How late the generator itself sent requests (open loop): the part of the tail that is not the server's. */
  sendLag: LatencySummary;
  statuses: Record<string, number>;
  errors: number;
  loaderCpuSeconds: number;
}

const newHistogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });
type Hdr = ReturnType<typeof newHistogram>;

function summary(h: Hdr): LatencySummary {
  const at = (p: number) => (h.totalCount ? h.getValueAtPercentile(p) / 1000 : Number.NaN);
  return { count: h.totalCount, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: h.totalCount ? h.maxValue / 1000 : Number.NaN };
}

export interface GeneratorSpec {
  url: string;
  path: string;
  token?: string;
  /** Requests per second on a Poisson schedule fixed in advance (seeded), like pgbench --rate. */
  rate?: number;
  /** Closed loop instead: this many requests in flight, each sent when the previous one answered. */
  closedConnections?: number;
  seconds: number;
  /** Sent but not recorded: sockets, JIT and caches warm up. */
  warmupSeconds: number;
  /** The open loop's bound on sockets; requests beyond it queue in the pool and are charged for it. */
  maxSockets: number;
  seed: number;
  timeoutMs?: number;
}

/**
 * Drives one POST route from this process. Open loop: request i is due at its scheduled time and
 * its latency counts from then, whether the generator, a socket or the server held it back, so a
 * stall is charged to every request it delays (coordinated omission corrected).
 */
export async function runGenerator(spec: GeneratorSpec, body: () => string): Promise<GeneratorResult> {
  const target = new URL(spec.url);
  const connections = spec.closedConnections ?? spec.maxSockets;
  const headers: Record<string, string> = { "content-type": "application/json", ...(spec.token ? { authorization: `Bearer ${spec.token}` } : {}) };
  const pool = new RawPool({ host: target.hostname, port: Number(target.port), path: spec.path, headers, sockets: connections, timeoutMs: spec.timeoutMs ?? 10_000 });
  const all = newHistogram();
  const ok = newHistogram();
  const shed = newHistogram();
  const sendLag = newHistogram();
  let lastAnswer = 0;
  const statuses: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let inFlight = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now() + 20;
  const measureFrom = start + spec.warmupSeconds * 1000;
  const end = measureFrom + spec.seconds * 1000;
  let settle: () => void = () => undefined;
  const drained = new Promise<void>((resolve) => (settle = resolve));

  const record = (due: number, status: number | undefined) => {
    inFlight--;
    if (due >= measureFrom && due < end) {
      lastAnswer = performance.now();
      const us = Math.max(1, Math.round((lastAnswer - due) * 1000));
      all.recordValue(us);
      if (status === undefined) errors++;
      else {
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status >= 200 && status < 300) ok.recordValue(us);
        if (status === 503) shed.recordValue(us);
      }
    }
  };
  const send = (due: number, then?: () => void) => {
    const text = body();
    if (due >= measureFrom && due < end) sendLag.recordValue(Math.max(1, Math.round((performance.now() - due) * 1000)));
    inFlight++;
    sent++;
    pool.post(text, (status) => {
      record(due, status);
      then?.();
      if (inFlight === 0 && (spec.closedConnections ? performance.now() >= end : nextDue >= end)) settle();
    });
  };

  let nextDue = start;
  if (spec.closedConnections) {
    const loop = () => {
      const now = performance.now();
      if (now < end) send(now, loop);
    };
    setTimeout(() => {
      for (let c = 0; c < connections; c++) loop();
    }, Math.max(0, start - performance.now()));
  } else {
    const random = seededRandom(spec.seed);
    const meanGapMs = 1000 / spec.rate!;
    const pump = () => {
      const now = performance.now();
      while (nextDue <= now && nextDue < end) {
        send(nextDue);
        nextDue += -Math.log(1 - random()) * meanGapMs;
      }
      if (nextDue < end) setTimeout(pump, Math.min(5, Math.max(0, nextDue - now - 0.5)));
      else if (inFlight === 0) settle();
    };
    setTimeout(pump, Math.max(0, start - performance.now()));
  }
  await drained;
  pool.close();
  const used = process.cpuUsage(cpu0);
  const answeredIn = Math.max(spec.seconds, (lastAnswer - measureFrom) / 1000);
  const latencies = { all: summary(all), ok: summary(ok), shed: summary(shed), sendLag: summary(sendLag) };
  const result = { offered: spec.rate ?? 0, sent, seconds: spec.seconds, achieved: all.totalCount / answeredIn, ...latencies, statuses, errors };
  return { ...result, loaderCpuSeconds: (used.user + used.system) / 1e6 };
}
