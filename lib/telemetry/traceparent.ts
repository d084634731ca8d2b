/**
 * W3C Trace Context: `version-traceid-parentid-flags`, lowercase hex, e.g.
 * 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01. Anchored, fixed-width
 * groups, no nested quantifier: linear in the header's length.
 */
const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;
const ALL_ZERO = /^0+$/;

export interface TraceContext {
  traceId: string;
  parentSpanId: string;
  sampled: boolean;
}

/** The trace a traceparent header names, or undefined for a missing, malformed or invalid one (never an error: tracing is advisory). */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | undefined {
  if (typeof header !== "string" || header.length !== 55) return undefined;
  const found = TRACEPARENT.exec(header);
  if (!found || found[1] === "ff" || ALL_ZERO.test(found[2]!) || ALL_ZERO.test(found[3]!)) return undefined;
  return { traceId: found[2]!, parentSpanId: found[3]!, sampled: (parseInt(found[4]!, 16) & 1) === 1 };
}

/** The header itself when it is valid: what a decision's origin carries. */
export function validTraceparent(header: string | string[] | undefined): string | undefined {
  return parseTraceparent(header) ? (header as string) : undefined;
}
