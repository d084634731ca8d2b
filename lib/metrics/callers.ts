import { Counter, Gauge } from "prom-client";
import { SubjectLabels } from "./labels";
import { metrics } from "./registry";
import { PendingCounts } from "./pending-counts";

/** What the capacity gate decided for one request of a caller. */
export type CallerOutcome = "admitted" | "in_flight_limited" | "rate_limited" | "shed";

/** Who a request came from, as a label: an API token's id, or one value for every session, anonymous or not-yet-known caller. */
export type CallerLabel = string;

// server.ts and Next's bundles may load this module separately: one set per process.
const HANDLE = Symbol.for("weir.metrics.callers");
const globals = globalThis as Record<symbol, ReturnType<typeof createCallerMetrics>>;

function createCallerMetrics() {
  const registers = [metrics.registry];
  const pending = new PendingCounts();
  let heaviest = () => Number.NaN;
  return {
    pending,
    // Token ids are made by admins, not callers; still, past WEIR_METRICS_MAX_SUBJECTS they fold into "_other".
    labels: new SubjectLabels(),
    setHeaviest: (read: () => number) => void (heaviest = read),
    requests: new Counter({
      name: "weir_token_requests_total",
      help: "API requests by caller (an API token's id; session, anonymous or unknown otherwise) and what the capacity gate did: admitted, in_flight_limited or rate_limited (429), shed (503)",
      labelNames: ["token", "outcome"] as const,
      registers,
      collect() {
        pending.drainInto(this, "token");
      },
    }),
    heaviest: new Gauge({
      name: "weir_http_heaviest_caller_in_flight",
      help: "Requests in flight of the caller holding the most at the scrape: near its share, it is the one refused first",
      registers,
      collect() {
        const value = heaviest();
        if (Number.isFinite(value)) this.set(value);
        else this.reset();
      },
    }),
  };
}

const callers = (globals[HANDLE] ??= createCallerMetrics());

/** Counts one request of `caller` (a token id, or a fixed word) with what the gate decided. */
export function countCaller(caller: CallerLabel, outcome: CallerOutcome): void {
  callers.pending.add(callers.labels.label(caller), outcome);
}

/** Reports the heaviest caller's requests in flight on every scrape. */
export function watchHeaviestCaller(read: () => number): void {
  callers.setHeaviest(read);
}
