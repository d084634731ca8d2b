import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<Headers>();

/**
 * Runs `fn` as if it served a request with these headers. Next supplies
 * headers to pages and actions itself; this lets tests (and scripts) call the
 * same server actions with a real session cookie and a real database.
 */
export function runWithRequestHeaders<T>(headers: Headers, fn: () => Promise<T>): Promise<T> {
  return scope.run(headers, fn);
}

/** Whether the headers come from runWithRequestHeaders rather than from Next. */
export function inExplicitScope(): boolean {
  return scope.getStore() !== undefined;
}

/** The current request's headers: the explicit scope first, else Next's. */
export async function requestHeaders(): Promise<Headers> {
  const explicit = scope.getStore();
  if (explicit) return explicit;
  const { headers } = await import("next/headers");
  return new Headers(await headers());
}
