import { Counter, Gauge } from "prom-client";
import { metrics } from "./registry";

/** What the API door's adaptive limit (lib/http/adaptive-limit.ts) shows of itself. */
export interface ConcurrencySource {
  readonly limit: number;
  readonly inFlight: number;
  readonly noLoadLatencyMs: number;
}

// One source per process (the latest API handler); the gauges read it on every scrape.
const HANDLE = Symbol.for("weir.metrics.concurrency");
const globals = globalThis as Record<symbol, { source?: ConcurrencySource; gauges?: ReturnType<typeof createGauges> }>;
const holder = (globals[HANDLE] ??= {});

function createGauges() {
  const registers = [metrics.registry];
  const read = (gauge: Gauge, pick: (s: ConcurrencySource) => number) => {
    const value = holder.source ? pick(holder.source) : Number.NaN;
    return Number.isFinite(value) ? gauge.set(value) : gauge.reset();
  };
  return {
    limit: new Gauge({
      name: "weir_http_concurrency_limit",
      help: "API requests allowed in flight now (WEIR_MAX_IN_FLIGHT, or the adaptive limit when WEIR_MIN_IN_FLIGHT is lower); past it requests get 503 overloaded",
      registers,
      collect() {
        read(this, (s) => s.limit);
      },
    }),
    inFlight: new Gauge({
      name: "weir_http_requests_in_flight",
      help: "API requests in flight at the scrape (health and metrics not counted)",
      registers,
      collect() {
        read(this, (s) => s.inFlight);
      },
    }),
    noLoad: new Gauge({
      name: "weir_http_no_load_latency_seconds",
      help: "The adaptive limit's moving average of per-window median latency: the limit shrinks while answers take more than twice this",
      registers,
      collect() {
        read(this, (s) => s.noLoadLatencyMs / 1000);
      },
    }),
    shed: new Counter({
      name: "weir_http_shed_total",
      help: "API requests answered 503 overloaded by the concurrency limit, before their body was read",
      registers,
    }),
  };
}

/** Reports this limit's state on every scrape; returns the function that counts a refusal. */
export function watchConcurrency(source: ConcurrencySource): () => void {
  holder.source = source;
  const gauges = (holder.gauges ??= createGauges());
  return () => gauges.shed.inc();
}
