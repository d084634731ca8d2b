import type { DecisionOrigin } from "@/lib/telemetry/decisions";
import { validTraceparent } from "@/lib/telemetry/traceparent";
import type { ApiContext } from "./types";

/** Who asked for a decision over HTTP: the journal's caller (the token), the request id (echoed) and the trace. */
export function originOf(ctx: ApiContext): DecisionOrigin {
  return { caller: ctx.actor.id, requestId: ctx.requestId, traceparent: validTraceparent(ctx.req.headers.traceparent) };
}
