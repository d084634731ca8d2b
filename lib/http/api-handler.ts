import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ZodType } from "zod";
import type { Store } from "@/db/client";
import { authorize } from "@/lib/auth/authorize";
import { WeirError } from "@/lib/errors";
import { ANONYMOUS, guardRoutes } from "./guard-routes";
import { canonicalizeJson } from "@/lib/dedup/canonical/canonical-json";
import { BodyTimeoutError, DEFAULT_BODY_LIMIT, bodyTimeoutMsFromEnv, readBody } from "./body";
import { callerOf } from "./caller";
import { CapacityGate, type Ticket } from "./capacity-gate";
import type { RefusalTiming } from "./refusal-hold";
import { errorToResult, writeResult } from "./respond";
import { Router } from "./router";
import { AdaptiveConcurrencyLimit } from "./adaptive-limit";
import { watchGate } from "./saturation";
import type { ApiContext, HttpResult, Route } from "./types";
import { setting } from "@/lib/config";

/** Strict JSON (duplicate fields and trailing garbage refused, with a position) for the non-hot routes. */
function parseStrictJson(text: string): unknown {
  canonicalizeJson(text);
  return JSON.parse(text);
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** "application/json", optionally with parameters (charset); anchored, no nested quantifier. */
const JSON_MEDIA_TYPE = /^\s*application\/json\s*(;|$)/i;

class UnsupportedMediaTypeError extends WeirError {
  constructor() {
    super(415, "invalid_request", 'send the body as JSON with "content-type: application/json"', "content-type");
  }
}

/**
 * Every body the API reads is JSON: a body sent as something else (a form a
 * browser can post cross-site without a preflight, text/plain) is refused
 * before anything reads it. Requests without a body need no content type.
 */
function refuseNonJsonBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  const hasBody = (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
  if (hasBody && !JSON_MEDIA_TYPE.test(req.headers["content-type"] ?? "")) throw new UnsupportedMediaTypeError();
  return hasBody;
}

/**
 * API requests in flight at once past which a new one is answered 503 `overloaded` at once,
 * before its body is read or hashed. When the CPU is the limit, requests pile up inside the
 * process and every answer slows; refusing the excess this early keeps the accepted ones fast
 * and spends almost nothing on the refused. WEIR_MAX_IN_FLIGHT (default 512) is the limit; with
 * WEIR_MIN_IN_FLIGHT set lower, the limit adapts between the two (adaptive-limit.ts), coming down
 * only while answers take longer than twice their usual time. Health and metrics are never
 * refused or counted, so an overload stays visible.
 */
const maxInFlightFromEnv = () => setting("WEIR_MAX_IN_FLIGHT");
/**
 * The adaptive limit's floor (WEIR_MIN_IN_FLIGHT), by default the ceiling: a fixed limit. The
 * adaptive limit reads latency, and where weir shares its cores (with PostgreSQL, or a load
 * generator) latency rises whoever causes it: in the bench it refused 9 and 26 % of requests at
 * 50 and 75 % of capacity where the fixed limit refused 3 and 5 %. Set it (64 lets a 64-connection
 * client pool through, however slow the answers) where weir has its cores to itself.
 */
const minInFlightFromEnv = () => setting("WEIR_MIN_IN_FLIGHT") ?? maxInFlightFromEnv();
/** One credential's share of the limit (WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL); unset: a quarter of it, at least 8. */
const perCredentialFromEnv = () => setting("WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL");
const neverShed = (url: string | undefined) => url !== undefined && (url.startsWith("/api/health") || url.startsWith("/api/metrics"));

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}

const withRetryAfter = (result: HttpResult, seconds: number | undefined): HttpResult =>
  seconds === undefined ? result : { ...result, headers: { ...result.headers, "retry-after": String(seconds) } };

/** A stalled body is answered 408 and its connection closed: the rest of it would never be read. */
function writeAndClose(req: IncomingMessage, res: ServerResponse, result: HttpResult, requestId: string): void {
  res.once("finish", () => req.socket.destroy());
  writeResult(res, { ...result, headers: { ...result.headers, connection: "close" } }, requestId);
}

/**
 * Writes an answer when it is due: at once, but for a refusal to a caller that keeps coming back
 * before its Retry-After (refusal-hold.ts): a Retry-After later, or at once with the connection
 * closed when the node already holds as many such answers as it will.
 */
function writeWhenDue(gate: CapacityGate, req: IncomingMessage, res: ServerResponse, result: HttpResult, requestId: string, timing: RefusalTiming): void {
  if (timing.kind === "now") return writeResult(res, result, requestId);
  if (timing.kind === "close") return writeAndClose(req, res, result, requestId);
  const released = gate.holding();
  const timer = setTimeout(() => {
    released();
    if (!res.destroyed) writeResult(res, result, requestId);
  }, timing.ms);
  // A held answer never keeps the process up, and a client that hangs up frees its place at once.
  timer.unref();
  res.once("close", () => {
    clearTimeout(timer);
    released();
  });
}

export interface ApiHandlerOptions {
  /** Every credential's share of the limit; undefined: WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL, else a quarter of the limit. */
  perCredential?: number;
  /** How long a body may take once read (WEIR_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
}

/**
 * Serves the machine API with weir's own handlers. The store is resolved per
 * request so that a store that was down at boot is picked up once it is back.
 */
export function createApiHandler(
  routes: Route[],
  getStore: () => Promise<Store>,
  limiter = new AdaptiveConcurrencyLimit({ max: maxInFlightFromEnv(), min: minInFlightFromEnv() }),
  options: ApiHandlerOptions = {},
) {
  // Routes from createApiRoutes come guarded (inside their metrics); any other route is guarded here.
  const router = new Router(guardRoutes(routes, getStore));
  const gate = new CapacityGate(limiter, options.perCredential ?? perCredentialFromEnv());
  watchGate(gate);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? bodyTimeoutMsFromEnv();
  return async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdOf(req);
    let ticket: Ticket | undefined;
    // The status answered, unless the answer's time says nothing of the node's load (a stalled body, a long poll).
    let answered: number | undefined;
    if (!neverShed(req.url)) {
      try {
        ticket = gate.enter(callerOf(req));
      } catch (err) {
        req.resume();
        return writeWhenDue(gate, req, res, errorToResult(err, requestId), requestId, gate.timingOf(err, undefined));
      }
    }
    try {
      const url = new URL(req.url ?? "/", "http://weir.local");
      const { handler, params } = router.match(req.method ?? "GET", url.pathname);
      const hasBody = refuseNonJsonBody(req);
      const admitted = ticket;
      // Work starts once the body is in (a stalled body does none), or at authentication without one.
      const startWork = () => {
        if (admitted) gate.startWork(admitted);
      };
      let bodyText: Promise<string> | undefined;
      const text = () =>
        (bodyText ??= readBody(req, DEFAULT_BODY_LIMIT, bodyTimeoutMs).then((body) => {
          startWork();
          return body;
        }));
      const ctx: ApiContext = {
        req,
        url,
        params,
        requestId,
        actor: ANONYMOUS,
        requireScope(kind, id) {
          // The route's permission was checked by its guard; this checks an id that came in the body.
          authorize(this.actor, "read", { kind, id });
        },
        admit: admitted
          ? (actor) => {
              gate.admit(admitted, actor);
              if (!hasBody) startWork();
            }
          : undefined,
        waiting() {
          this.longPoll = true;
          if (admitted) gate.rest(admitted);
        },
        store: getStore,
        text,
        json: async <T>(schema: ZodType<T>) => schema.parse(parseStrictJson(await text())),
      };
      const result = await handler(ctx);
      if (!ctx.longPoll) answered = result.status;
      writeResult(res, result, requestId);
    } catch (err) {
      if (res.headersSent) return void res.destroy();
      if (err instanceof BodyTimeoutError) return writeAndClose(req, res, withRetryAfter(errorToResult(err, requestId), ticket && gate.backoffFor(ticket)), requestId);
      const result = errorToResult(err, requestId);
      answered = result.status;
      writeWhenDue(gate, req, res, result, requestId, gate.timingOf(err, ticket));
    } finally {
      if (ticket) gate.leave(ticket, answered);
    }
  };
}
