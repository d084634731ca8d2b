import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  trace,
  type Attributes,
  type Context,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import { onDecision, type DecisionEvent, type DecisionMode } from "./decisions";
import { parseTraceparent } from "./traceparent";

/** One span name per kind of answer, named after the operation a caller knows. */
export const SPAN_NAMES: Record<DecisionMode, string> = {
  last_seen: "weir.check",
  last_seen_revert: "weir.check.revert",
  window: "weir.claim",
  window_release: "weir.claim.release",
  idempotency: "weir.idempotency.begin",
  idempotency_complete: "weir.idempotency.complete",
  idempotency_release: "weir.idempotency.release",
};

// The API accepts keys of at most 512 characters; library mode could pass longer ones, and a span is not the journal.
const MAX_KEY_CHARS = 512;

// A batch carries one traceparent for all its items: parse it once, not once per decision.
let lastHeader: string | undefined;
let lastParent: Context = ROOT_CONTEXT;

function parentOf(header: string | undefined, active: Context): Context {
  if (header === undefined) return active;
  if (header !== lastHeader) {
    const parsed = parseTraceparent(header);
    if (!parsed) return active;
    lastHeader = header;
    const flags = parsed.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE;
    lastParent = trace.setSpanContext(ROOT_CONTEXT, { traceId: parsed.traceId, spanId: parsed.parentSpanId, traceFlags: flags, isRemote: true });
  }
  return lastParent;
}

function attributesOf(event: DecisionEvent): Attributes {
  const attributes: Attributes = { "weir.mode": event.mode, "weir.subject": event.subject, "weir.decision": event.decision };
  if (event.key !== undefined) attributes["weir.key"] = event.key.length > MAX_KEY_CHARS ? event.key.slice(0, MAX_KEY_CHARS) : event.key;
  if (event.version !== undefined && event.version !== null) attributes["weir.version"] = event.version;
  const origin = event.origin;
  if (origin?.requestId !== undefined) attributes["weir.request_id"] = origin.requestId;
  if (origin?.caller !== undefined) attributes["weir.caller"] = origin.caller;
  return attributes;
}

/**
 * The span of one answer, an instant at `at` (epoch ms): it marks the answer inside
 * the caller's trace (SERVER under a remote traceparent), it does not time the statement.
 * Without a traceparent, the parent is `active`: the caller's span in library mode
 * under a context manager, else none (a new trace).
 */
export function spanDecision(tracer: Tracer, event: DecisionEvent, at: number, active: Context = ROOT_CONTEXT): void {
  const header = event.origin?.traceparent;
  const kind = header === undefined ? SpanKind.INTERNAL : SpanKind.SERVER;
  const span = tracer.startSpan(SPAN_NAMES[event.mode], { kind, attributes: attributesOf(event), startTime: at }, parentOf(header, active));
  if (event.decision === "error") span.setStatus({ code: SpanStatusCode.ERROR, message: "the store did not answer" });
  span.end(at);
}

export interface DecisionSpans {
  /** Turns the decisions held so far into spans now (before a flush or a shutdown). */
  drain(): void;
  /** Unsubscribes, after draining. */
  stop(): void;
  /** Decisions dropped because more than `maxPending` waited at once. */
  readonly dropped: number;
}

/**
 * Subscribes the spans to the decisions of this process: called once an SDK is
 * registered (otel-sdk.ts, or a library-mode service's own). Without it nothing
 * subscribes, so a node without tracing pays nothing per decision. With it, the
 * decision's path pays a clock read, the active context and a push; the spans are made after the
 * answer is sent (setImmediate), from a bounded list whose overflow is counted.
 */
export function traceDecisions(provider: TracerProvider = trace.getTracerProvider(), maxPending = 8192): DecisionSpans {
  const tracer = provider.getTracer("weir");
  let events: DecisionEvent[] = [];
  let times: number[] = [];
  let actives: Context[] = [];
  let scheduled = false;
  let dropped = 0;
  let reported = 0;

  const drain = () => {
    scheduled = false;
    const [held, at, parents] = [events, times, actives];
    [events, times, actives] = [[], [], []];
    for (let i = 0; i < held.length; i++) spanDecision(tracer, held[i]!, at[i]!, parents[i]);
    if (dropped > reported) {
      console.warn(`[weir] tracing: ${dropped - reported} decisions got no span (more than ${maxPending} waited at once)`);
      reported = dropped;
    }
  };
  const unsubscribe = onDecision("spans", (event) => {
    if (events.length >= maxPending) return void dropped++;
    events.push(event);
    times.push(performance.timeOrigin + performance.now());
    // Read now: by the time the span is made, the caller's context is gone.
    actives.push(context.active());
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  });
  return {
    drain,
    stop: () => {
      unsubscribe();
      drain();
    },
    get dropped() {
      return dropped;
    },
  };
}
