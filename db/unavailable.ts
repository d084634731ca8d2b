import { StoreUnavailableError } from "@/lib/errors";
import { COORDINATOR_UNREACHABLE } from "./route-pool";

// SQLSTATE classes and codes meaning "the store is not answering", not "your input is wrong".
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "53400", "57014", "55P03", "40P01"]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "Query read timeout",
  "Client has encountered a connection error",
  "Cannot use a pool after calling end",
  "connection is closed",
  "Client was closed",
  "PGlite is closed",
  "is not currently accepting connections",
];

/** Also looks inside wrappers: drizzle's query builder wraps the driver error as `cause`. */
export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (err instanceof StoreUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  if (err.cause !== undefined && depth < 3 && isStoreUnavailable(err.cause, depth + 1)) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code.startsWith("08") || UNAVAILABLE_SQLSTATES.has(code) || NETWORK_CODES.has(code)) return true;
  }
  return UNAVAILABLE_MESSAGES.some((fragment) => err.message.includes(fragment));
}

/** A failure to reach the Citus coordinator while the hot path is on the workers (db/route-pool.ts); looks inside wrappers too. */
export function isCoordinatorUnreachable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error)) return false;
  if ((err as { [COORDINATOR_UNREACHABLE]?: boolean })[COORDINATOR_UNREACHABLE]) return true;
  return depth < 3 && isCoordinatorUnreachable(err.cause, depth + 1);
}

/** Re-raises driver failures that mean "store down" as the typed 503 error. */
export function asStoreError(err: unknown): unknown {
  return isStoreUnavailable(err) ? new StoreUnavailableError(1, err) : err;
}
