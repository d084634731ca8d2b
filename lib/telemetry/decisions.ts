/**
 * One typed event per decision, emitted once by the engine where the decision is
 * made (single check, batch, library mode, coalescer alike) and read by every
 * subscriber: the stats rollup (lib/stats), the Prometheus counters (lib/metrics),
 * the decision journal (lib/journal) and the trace spans (lib/telemetry/spans).
 * A plain call into a short array of sinks, no emitter: it runs on the hot path.
 */

/** Who asked for a decision: set by the door (HTTP: the token, X-Request-Id, traceparent; library mode: the caller's name). */
export interface DecisionOrigin {
  caller?: string;
  requestId?: string;
  /** The W3C traceparent header as sent, already checked against its format (see traceparent.ts). */
  traceparent?: string;
}

/** What the journal keeps of an answer besides its subject and decision; absent on errors. */
export interface DecisionDetail {
  /** The message id or idempotency key. */
  key?: string;
  /** The key's version (last-seen) or the attempt (idempotency keys). */
  version?: number | null;
  /** When the matched version was accepted, the window started, or the key was started or completed. */
  matchedAt?: Date | string | null;
  /** The hash settings version the decision was made under (last-seen). */
  hashVersion?: number | null;
  origin?: DecisionOrigin;
  /** The caller's ref given with this request (not the stored one a duplicate answers with). */
  ref?: string | null;
}

export type DecisionEvent = DecisionDetail &
  (
    | { mode: "last_seen"; subject: string; decision: "new" | "changed" | "duplicate" | "error" }
    | { mode: "last_seen_revert"; subject: string; decision: "reverted" }
    | { mode: "window"; subject: string; decision: "new" | "duplicate" | "error"; lateBySeconds?: number }
    | { mode: "window_release"; subject: string; decision: "released" | "not_released" }
    | { mode: "idempotency"; subject: string; decision: "started" | "completed" | "in_progress" | "mismatch" | "error" }
    | { mode: "idempotency_complete"; subject: string; decision: "stored" | "already_stored" }
    | { mode: "idempotency_release"; subject: string; decision: "released" | "not_released" }
  );

export type DecisionMode = DecisionEvent["mode"];
export type DecisionSink = (event: DecisionEvent) => void;

interface Sinks {
  names: string[];
  list: DecisionSink[];
}

// server.ts and Next's bundles may load this module separately: one list per process.
const HANDLE = Symbol.for("weir.telemetry.decisionSinks");
const sinks: Sinks = ((globalThis as Record<symbol, Sinks>)[HANDLE] ??= { names: [], list: [] });

/**
 * Subscribes `sink` under `name`; subscribing a name again replaces its sink, so a
 * module loaded twice in one process still counts each decision once.
 */
export function onDecision(name: string, sink: DecisionSink): () => void {
  const at = sinks.names.indexOf(name);
  if (at >= 0) sinks.list[at] = sink;
  else {
    sinks.names.push(name);
    sinks.list.push(sink);
  }
  return () => {
    const index = sinks.list.indexOf(sink);
    if (index < 0) return;
    sinks.names.splice(index, 1);
    sinks.list.splice(index, 1);
  };
}

/** Tells every subscriber about one decision; a failing subscriber never fails the decision. */
export function decided(event: DecisionEvent): void {
  const list = sinks.list;
  for (let i = 0; i < list.length; i++) {
    try {
      list[i]!(event);
    } catch (err) {
      console.error(`[weir] decision subscriber ${sinks.names[i]} failed: ${(err as Error).message}`);
    }
  }
}
