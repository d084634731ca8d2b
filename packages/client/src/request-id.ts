import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

/** The header weir reads, echoes on every response and logs with errors. */
export const REQUEST_ID_HEADER = "x-request-id";

// The same pattern the API accepts; anything else is replaced by a fresh id there.
const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

const current = new AsyncLocalStorage<string>();

export function newRequestId(): string {
  return randomUUID();
}

/** The request id of an incoming request or message (header map, Headers or NATS headers), if it has a valid one. */
export function requestIdFrom(headers: { get(name: string): string | null | undefined } | Record<string, unknown> | undefined): string | undefined {
  if (!headers) return undefined;
  const raw =
    typeof (headers as { get?: unknown }).get === "function"
      ? (headers as { get(name: string): string | null | undefined }).get(REQUEST_ID_HEADER)
      : (headers as Record<string, unknown>)[REQUEST_ID_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === "string" && VALID.test(value) ? value : undefined;
}

/**
 * Runs `fn` with a request id that every weir call inside it sends (unless a
 * call passes its own), so one id follows an event from producer to consumer
 * to weir's logs. An absent or invalid id is replaced by a new one.
 */
export function withRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return current.run(requestId !== undefined && VALID.test(requestId) ? requestId : newRequestId(), fn);
}

/** The request id of the surrounding `withRequestId`, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

/** Headers to put on an outgoing message or request so the next hop keeps the id. */
export function requestIdHeaders(requestId = currentRequestId() ?? newRequestId()): Record<string, string> {
  return { [REQUEST_ID_HEADER]: requestId };
}
