/**
 * Typed errors raised inside weir. Each transport (HTTP API, server actions,
 * CLI) maps them once, at its edge; nothing else inspects raw driver errors.
 */
export type ErrorCode =
  | "invalid_request"
  | "invalid_json"
  | "duplicate_field"
  | "too_deep"
  | "invalid_pointer"
  | "payload_too_large"
  | "body_timeout"
  | "unauthorized"
  | "token_expired"
  | "forbidden"
  | "reauth_required"
  | "not_found"
  | "conflict"
  | "in_progress"
  | "mismatch"
  | "unprocessable"
  | "rate_limited"
  | "store_unavailable"
  | "overloaded"
  | "internal";

export class WeirError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends WeirError {
  constructor(message: string, field?: string, code: ErrorCode = "invalid_request") {
    super(400, code, message, field);
  }
}

export class PayloadTooLargeError extends WeirError {
  constructor(limitBytes: number) {
    super(413, "payload_too_large", `request body exceeds the limit of ${limitBytes} bytes`);
  }
}

export class NotFoundError extends WeirError {
  constructor(message: string, field?: string) {
    super(404, "not_found", message, field);
  }
}

export class ConflictError extends WeirError {
  constructor(message: string, code: ErrorCode = "conflict", details?: Record<string, unknown>) {
    super(409, code, message, undefined, details);
  }
}

export class UnprocessableError extends WeirError {
  constructor(message: string, code: ErrorCode = "unprocessable", details?: Record<string, unknown>, field?: string) {
    super(422, code, message, field, details);
  }
}

export class UnauthorizedError extends WeirError {
  constructor(message = "authentication required", code: ErrorCode = "unauthorized", details?: Record<string, unknown>) {
    super(401, code, message, undefined, details);
  }
}

/** A real token past its expiry: told apart from an unknown one, so whoever holds it knows to get a new one. */
export class TokenExpiredError extends UnauthorizedError {
  constructor(expiredAt: Date) {
    super(`token expired at ${expiredAt.toISOString()}; ask an admin for a new one`, "token_expired", { reason: "token expired", expiredAt: expiredAt.toISOString() });
  }
}

export class ForbiddenError extends WeirError {
  constructor(message = "not allowed") {
    super(403, "forbidden", message);
  }
}

/** A destructive operation needs a sign-in younger than the re-authentication window. */
export class ReauthenticationRequiredError extends WeirError {
  constructor(maxAgeMinutes: number) {
    super(403, "reauth_required", `sign in again to confirm: this operation needs a sign-in from the last ${maxAgeMinutes} minutes`);
  }
}

export class RateLimitedError extends WeirError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "rate_limited", `too many requests; retry in ${retryAfterSeconds} s`);
  }
}

/** The store could not be reached or did not answer in time: weir fails closed. */
export class StoreUnavailableError extends WeirError {
  constructor(readonly retryAfterSeconds = 1, cause?: unknown) {
    super(503, "store_unavailable", "the dedup store is unavailable; no decision was made, retry later");
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * The Citus coordinator is down while the node's hot path is on the workers (WEIR_CITUS_ROUTE_URLS):
 * what needs it (console writes, resets, settings) is refused, unchanged; checks go on.
 */
export class CoordinatorUnavailableError extends StoreUnavailableError {
  constructor(retryAfterSeconds = 1) {
    super(retryAfterSeconds);
    this.message = "the Citus coordinator is unavailable: console writes, resets and settings changes wait for it (checks and claims go on); nothing was changed, retry later";
  }
}

/** More checks arrived than the store can decide in time: the excess is refused at once, undecided. */
export class OverloadedError extends WeirError {
  constructor(
    readonly retryAfterSeconds = 1,
    /** Refused as the heaviest caller while lighter ones were still served, not because the node was full for everyone. */
    readonly callersOwnLoad = false,
  ) {
    super(503, "overloaded", "weir is over capacity; no decision was made, retry later");
  }
}
