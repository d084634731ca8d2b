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

function parentOf(header: string | undefined): Context {
  // Without a header, the caller's active span (library mode with a context manager), else a new trace.
  if (header === undefined) return context.active();
  if (header === lastHeader) return lastParent;
  const parsed = parseTraceparent(header);
  lastHeader = header;
  lastParent = parsed
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: parsed.traceId,
        spanId: parsed.parentSpanId,
        traceFlags: parsed.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      })
    : context.active();
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
 * The span of one answer. The event is emitted as the engine answers, so the span
 * starts at the decision and ends at once: it marks the answer inside the caller's
 * trace (SERVER under a remote traceparent), it does not time the statement.
 */
export function spanDecision(tracer: Tracer, event: DecisionEvent): void {
  const header = event.origin?.traceparent;
  const kind = header === undefined ? SpanKind.INTERNAL : SpanKind.SERVER;
  const span = tracer.startSpan(SPAN_NAMES[event.mode], { kind, attributes: attributesOf(event) }, parentOf(header));
  if (event.decision === "error") span.setStatus({ code: SpanStatusCode.ERROR, message: "the store did not answer" });
  span.end();
}

/**
 * Subscribes the spans to the decisions of this process: called once an SDK is
 * registered (otel-sdk.ts, or a library-mode service's own). Without it nothing
 * subscribes, so a node without tracing pays nothing per decision.
 */
export function traceDecisions(provider: TracerProvider = trace.getTracerProvider()): () => void {
  const tracer = provider.getTracer("weir");
  return onDecision("spans", (event) => spanDecision(tracer, event));
}
