import { setTimeout as sleep } from "node:timers/promises";
import { WeirApiError, WeirConnectionError, WeirTimeoutError } from "./errors";
import { currentRequestId, newRequestId, REQUEST_ID_HEADER } from "./request-id";

export interface RetryInfo {
  method: string;
  path: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  reason: string;
  requestId: string;
}

export interface TransportOptions {
  /** Where weir listens, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** An API token; sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Per attempt (default 5000 ms). */
  timeoutMs?: number;
  /** Retries of a safe failure (default 3). */
  retries?: number;
  /** Backoff before the first retry (default 100 ms); doubles per retry, with full jitter. */
  minDelayMs?: number;
  /** Longest wait between attempts, Retry-After included (default 2000 ms). */
  maxDelayMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  onRetry?: (info: RetryInfo) => void;
}

export interface CallOptions {
  /** Aborts the call, its retries and its waits. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Sent as X-Request-Id; defaults to the surrounding `withRequestId`, else a new id (kept across retries). */
  requestId?: string;
  retries?: number;
}

export interface RawResponse {
  status: number;
  body: unknown;
  headers: Headers;
  requestId: string;
}

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE"]);

// Failures that happen before a byte of the request was sent: weir cannot have decided anything.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

function codesOf(err: unknown, depth = 0): string[] {
  if (!(err instanceof Error) || depth > 4) return [];
  const own = (err as { code?: unknown }).code;
  const nested = err instanceof AggregateError ? err.errors.flatMap((e) => codesOf(e, depth + 1)) : [];
  return [...(typeof own === "string" ? [own] : []), ...nested, ...codesOf(err.cause, depth + 1)];
}

export function neverSent(err: unknown): boolean {
  const codes = codesOf(err);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

function retryAfterMs(headers: Headers): number | undefined {
  const raw = headers.get("retry-after");
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * HTTP with retries only where a retry cannot change a decision: a 503 or 429
 * (weir refused before deciding), a connection that was never made, and any
 * failure of an idempotent method. A POST whose answer was lost is never
 * retried: the caller learns the outcome is unknown.
 */
export class Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: TransportOptions) {
    // The lookbehind anchors the run of slashes at its start: linear, where /\/+$/ is quadratic.
    this.baseUrl = options.baseUrl.replace(/(?<!\/)\/+$/, "");
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  private backoff(attempt: number, retryAfter: number | undefined): number {
    const min = this.options.minDelayMs ?? 100;
    const max = this.options.maxDelayMs ?? 2000;
    if (retryAfter !== undefined) return Math.min(retryAfter, max) * (1 + Math.random() * 0.25);
    return Math.random() * Math.min(max, min * 2 ** attempt);
  }

  async send(method: string, path: string, body: unknown, call: CallOptions = {}): Promise<RawResponse> {
    const requestId = call.requestId ?? currentRequestId() ?? newRequestId();
    const retries = call.retries ?? this.options.retries ?? 3;
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? 5000;
    const headers: Record<string, string> = { accept: "application/json", ...this.options.headers, [REQUEST_ID_HEADER]: requestId };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const text = body === undefined ? undefined : JSON.stringify(body);

    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      let reason: string;
      let retryAfter: number | undefined;
      try {
        const response = await this.fetchImpl(`${this.baseUrl}${path}`, { method, headers, body: text, signal });
        const parsed = await readBody(response);
        if ((response.status !== 503 && response.status !== 429) || attempt >= retries) {
          return { status: response.status, body: parsed, headers: response.headers, requestId: response.headers.get(REQUEST_ID_HEADER) ?? requestId };
        }
        reason = `HTTP ${response.status}`;
        retryAfter = retryAfterMs(response.headers);
      } catch (err) {
        if (call.signal?.aborted) throw call.signal.reason;
        const safe = IDEMPOTENT_METHODS.has(method);
        if (timeout.aborted) {
          if (!safe || attempt >= retries) throw new WeirTimeoutError(timeoutMs, requestId);
          reason = "timeout";
        } else {
          const notSent = neverSent(err);
          if (!(notSent || safe) || attempt >= retries) {
            const message = `cannot reach weir at ${this.baseUrl}: ${(err as Error).message}${notSent ? "" : "; the outcome is unknown"}`;
            throw new WeirConnectionError(message, notSent ? "not_made" : "unknown", true, requestId, { cause: err });
          }
          reason = codesOf(err)[0] ?? (err as Error).message;
        }
      }
      const delayMs = this.backoff(attempt, retryAfter);
      this.options.onRetry?.({ method, path, attempt: attempt + 1, delayMs, reason, requestId });
      await sleep(delayMs, undefined, { signal: call.signal });
    }
  }

  /** Sends and returns the body of an accepted status; any other status becomes a typed error. */
  async json<T>(method: string, path: string, body: unknown, call: CallOptions = {}, accepted: readonly number[] = [200, 201]): Promise<{ status: number; body: T; requestId: string }> {
    const response = await this.send(method, path, body, call);
    if (!accepted.includes(response.status)) throw apiError(response);
    return { status: response.status, body: response.body as T, requestId: response.requestId };
  }
}

export function apiError(response: RawResponse): WeirApiError {
  const error = (response.body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== "object") {
    const text = typeof response.body === "string" ? response.body.slice(0, 200) : "";
    return new WeirApiError(response.status, "http_error", text || `HTTP ${response.status}`, undefined, {}, response.requestId);
  }
  const { code, message, field, ...details } = error;
  return new WeirApiError(
    response.status,
    typeof code === "string" ? code : "http_error",
    typeof message === "string" ? message : `HTTP ${response.status}`,
    typeof field === "string" ? field : undefined,
    details,
    response.requestId,
  );
}
