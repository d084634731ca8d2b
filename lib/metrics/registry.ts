import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { watchEventLoop } from "./event-loop";
import { PendingCounts } from "./pending-counts";

/** Seconds; most decisions take a millisecond or two, a stalled store takes its timeout. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; a healthy loop runs callbacks within a millisecond, a GC pause or a blocking call takes tens. */
const DELAY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const LATENESS_BUCKETS = [1, 10, 60, 300, 900, 3600, 6 * 3600, 86_400, 7 * 86_400, 30 * 86_400];

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: "weir_" });
  let drainEventLoop = () => 0;
  const eventLoopDelay = new Histogram({
    name: "weir_event_loop_delay_seconds",
    help: "How late the event loop ran a callback, sampled every 10 ms: every request in flight waits this long too",
    buckets: DELAY_BUCKETS,
    registers,
    collect: () => void drainEventLoop(),
  });
  drainEventLoop = watchEventLoop(eventLoopDelay);
  // Decisions are counted here between scrapes (lib/metrics/decisions.ts); each scrape moves them into the counters.
  const pending = { checks: new PendingCounts(), claims: new PendingCounts(), begins: new PendingCounts() };
  return {
    registry,
    pending,
    checks: new Counter({
      name: "weir_checks_total",
      help: "Last-seen checks decided, by service and decision (new, changed, duplicate)",
      labelNames: ["service", "outcome"] as const,
      registers,
      collect() {
        pending.checks.drainInto(this, "service");
      },
    }),
    claims: new Counter({
      name: "weir_claims_total",
      help: "Window claims decided, by consumer group and decision (new, duplicate)",
      labelNames: ["consumer_group", "outcome"] as const,
      registers,
      collect() {
        pending.claims.drainInto(this, "consumer_group");
      },
    }),
    lateRedeliveries: new Counter({
      name: "weir_late_redeliveries_total",
      help: "Claims that came back after their window expired: the window did not hold",
      labelNames: ["consumer_group"] as const,
      registers,
    }),
    lateness: new Histogram({
      name: "weir_late_redelivery_lateness_seconds",
      help: "How long after the window expired a late redelivery came back",
      labelNames: ["consumer_group"] as const,
      buckets: LATENESS_BUCKETS,
      registers,
    }),
    idempotencyBegins: new Counter({
      name: "weir_idempotency_begins_total",
      help: "Idempotency-key begins, by scope and outcome (started, completed, in_progress, mismatch)",
      labelNames: ["scope", "outcome"] as const,
      registers,
      collect() {
        pending.begins.drainInto(this, "scope");
      },
    }),
    idempotencyReleases: new Counter({
      name: "weir_idempotency_releases_total",
      help: "Idempotency keys given back after failed work, by scope and whether a key was released",
      labelNames: ["scope", "released"] as const,
      registers,
    }),
    decisionDuration: new Histogram({
      name: "weir_decision_duration_seconds",
      help: "Time to answer a decision request (check, claim, begin), single or batch, from routing to response",
      labelNames: ["mode", "route"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    requestDuration: new Histogram({
      name: "weir_http_request_duration_seconds",
      help: "Time to answer an API request, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    requestErrors: new Counter({
      name: "weir_request_errors_total",
      help: "API requests that ended in an error response, by route pattern and error code",
      labelNames: ["route", "code"] as const,
      registers,
    }),
    storeErrors: new Counter({
      name: "weir_store_errors_total",
      help: "Operations refused because the store could not be reached (503, no decision made)",
      labelNames: ["source"] as const,
      registers,
    }),
    cleanupRemoved: new Counter({
      name: "weir_cleanup_rows_removed_total",
      help: "Expired rows removed by cleanup, by kind (window_record, idempotency_key)",
      labelNames: ["kind"] as const,
      registers,
    }),
    eventLoopDelay,
    poolWait: new Histogram({
      name: "weir_db_pool_wait_seconds",
      help: "Time a statement waited for a PostgreSQL pool connection (checkout, including connecting a new one)",
      buckets: DELAY_BUCKETS,
      registers,
    }),
    cleanupPasses: new Counter({
      name: "weir_cleanup_passes_total",
      help: "Cleanup passes run, by result (complete, partial, failed)",
      labelNames: ["result"] as const,
      registers,
    }),
    cleanupLag: new Gauge({
      name: "weir_cleanup_lag_seconds",
      help: "How long the oldest removable record has been waiting for cleanup, by kind (window, idempotency, max)",
      labelNames: ["kind"] as const,
      registers,
    }),
    retentionRemoved: new Counter({
      name: "weir_retention_rows_removed_total",
      help: "Rows past an age limit removed by the retention job, by kind (payload_version, stored_response, stats_minute)",
      labelNames: ["kind"] as const,
      registers,
    }),
    retentionPassSeconds: new Histogram({
      name: "weir_retention_pass_seconds",
      help: "How long a retention pass ran, by result (complete, partial)",
      labelNames: ["result"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    }),
    cleanupLastPass: new Gauge({
      name: "weir_cleanup_last_pass_timestamp_seconds",
      help: "Unix time of the last cleanup pass that finished",
      registers,
    }),
  };
}

export type WeirMetrics = ReturnType<typeof createMetrics>;

// server.ts and Next's bundles may load this module separately: one registry per process.
const HANDLE = Symbol.for("weir.metrics");
export const metrics: WeirMetrics = ((globalThis as Record<symbol, WeirMetrics>)[HANDLE] ??= createMetrics());
