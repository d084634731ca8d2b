/**
 * What a call's failure means for the caller's side effect:
 * - "not_made": weir made no decision (a 4xx, a 503, or the request never left);
 * - "unknown": the request may have reached weir and been decided, but no answer came back.
 */
export type DecisionOutcome = "not_made" | "unknown";

/** Every failure of a weir call. A failed call never carries a decision: the caller must not guess one. */
export class WeirClientError extends Error {
  constructor(
    message: string,
    readonly outcome: DecisionOutcome,
    /** Retrying later is reasonable (store down, rate limited, network); false for bad input. */
    readonly retryable: boolean,
    readonly requestId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** weir answered with an error status (after retries, for 503 and 429). */
export class WeirApiError extends WeirClientError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | undefined,
    /** Extra members of the error body (e.g. attempt, lockedUntil). */
    readonly details: Record<string, unknown>,
    requestId: string | undefined,
  ) {
    super(`${message} (HTTP ${status} ${code})`, status >= 500 ? (status === 503 ? "not_made" : "unknown") : "not_made", status === 503 || status === 429, requestId);
  }
}

/** weir could not be reached, or the connection failed before an answer came. */
export class WeirConnectionError extends WeirClientError {}

/** No answer within the timeout; the decision may or may not have been made. */
export class WeirTimeoutError extends WeirClientError {
  constructor(timeoutMs: number, requestId: string | undefined) {
    super(`weir did not answer within ${timeoutMs} ms; the outcome is unknown`, "unknown", true, requestId);
  }
}

/** A 2xx answer that does not carry what the endpoint promises: never turned into a decision. */
export class WeirProtocolError extends WeirClientError {
  constructor(message: string, requestId: string | undefined) {
    super(message, "unknown", false, requestId);
  }
}
