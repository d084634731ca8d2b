import type { ServerResponse } from "node:http";
import { ZodError } from "zod";
import { isCoordinatorUnreachable, isStoreUnavailable } from "@/db/unavailable";
import { CoordinatorUnavailableError, RateLimitedError, StoreUnavailableError, UnauthorizedError, WeirError } from "@/lib/errors";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import type { HttpResult } from "./types";

export function errorBody(code: string, message: string, field?: string) {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

/** Turns a zod issue path into the field name clients see, e.g. items[3].messageId. */
export function fieldOf(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return undefined;
  return path.reduce<string>((out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), "");
}

/** The one place where errors become HTTP responses for the machine API. */
export function errorToResult(err: unknown, requestId: string): HttpResult {
  const known = knownErrorResult(err);
  if (known) return known;
  console.error(`[weir] request ${requestId} failed:`, err);
  return { status: 500, body: errorBody("internal", `internal error; reference ${requestId}`) };
}

/** The status and code `errorToResult` answers an error with (for counters: nothing logged). */
export function errorStatusAndCode(err: unknown): { status: number; code: string } {
  const known = knownErrorResult(err);
  if (!known) return { status: 500, code: "internal" };
  return { status: known.status, code: (known.body as { error: { code: string } }).error.code };
}

/** The answer to a typed (or otherwise recognised) error; undefined for anything unexpected. */
function knownErrorResult(err: unknown): HttpResult | undefined {
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue ? fieldOf(issue.path) : undefined;
    const message = issue ? (field ? `${field}: ${issue.message}` : issue.message) : "invalid request";
    return { status: 400, body: errorBody("invalid_request", message, field) };
  }
  if (err instanceof CanonicalJsonError) {
    return { status: 400, body: errorBody(err.code, err.message, err.path) };
  }
  if (err instanceof UnauthorizedError) {
    const body = errorBody(err.code, err.message);
    return { status: 401, body: err.details ? { error: { ...body.error, ...err.details } } : body, headers: { "www-authenticate": 'Bearer realm="weir"' } };
  }
  if (err instanceof RateLimitedError) {
    return { status: 429, body: errorBody(err.code, err.message), headers: { "retry-after": String(err.retryAfterSeconds) } };
  }
  if (err instanceof StoreUnavailableError || isStoreUnavailable(err)) {
    const retry = err instanceof StoreUnavailableError ? err.retryAfterSeconds : 1;
    const store = err instanceof CoordinatorUnavailableError || isCoordinatorUnreachable(err) ? new CoordinatorUnavailableError(retry) : new StoreUnavailableError(retry);
    return { status: 503, body: errorBody(store.code, store.message), headers: { "retry-after": String(retry) } };
  }
  if (err instanceof WeirError) {
    const body = errorBody(err.code, err.message, err.field);
    // An error that knows when a retry can succeed (a held idempotency key) says so in Retry-After.
    const retry = (err as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    const headers = typeof retry === "number" ? { headers: { "retry-after": String(retry) } } : {};
    return { status: err.status, body: err.details ? { error: { ...body.error, ...err.details } } : body, ...headers };
  }
  return undefined;
}

export function writeResult(res: ServerResponse, result: HttpResult, requestId: string): void {
  const text = result.rawBody ?? (result.body === undefined ? "" : JSON.stringify(result.body));
  const headers: Record<string, string | number> = {
    "content-type": result.rawBody === undefined ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "x-request-id": requestId,
    "cache-control": "no-store",
    ...result.headers,
  };
  res.writeHead(result.status, headers);
  res.end(text);
}
