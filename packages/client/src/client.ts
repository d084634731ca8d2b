import { AttemptBook } from "./attempt-book";
import { Coalescer, type CoalesceOptions } from "./coalescer";
import { WeirProtocolError } from "./errors";
import { batchDecisions, checkDecision, claimDecision } from "./guards";
import { apiError, Transport, type CallOptions, type TransportOptions } from "./transport";
import type {
  ApiToken,
  BeginInput,
  BeginResult,
  CheckRequest,
  CheckResponse,
  ClaimRequest,
  ClaimResponse,
  CleanupRequest,
  CleanupResponse,
  CompleteInput,
  CompleteResponse,
  ConsumerGroupList,
  CreatedToken,
  CreateTokenInput,
  CreateUserInput,
  DeleteKeyResponse,
  ExplainRequest,
  Explanation,
  Health,
  IdempotencyKeyState,
  IdempotencyScope,
  JournalEntry,
  JournalKeyPage,
  JournalLevel,
  JournalMode,
  JournalRangePage,
  JournalRangeQuery,
  KeyDetail,
  PutConsumerGroupInput,
  PutConsumerGroupResponse,
  PutScopeInput,
  PutScopeResponse,
  ReleaseClaimInput,
  ReleaseClaimResponse,
  ReleaseInput,
  ReleaseResponse,
  RevertRequest,
  RevertResponse,
  Service,
  ServiceSettings,
  SetJournalLevelInput,
  SetJournalLevelResponse,
  SetUserRoleInput,
  TtlChanges,
  TtlPreview,
  User,
  DisableUserInput,
  EraseInput,
  ErasePreview,
  EraseResult,
  EraseSelection,
  ReleaseStuckInput,
  ReleaseStuckResult,
  ResetPasswordInput,
  RetentionChange,
  RetentionInput,
  StuckPreview,
} from "./types";

export interface WeirClientOptions extends TransportOptions {
  /**
   * Concurrent `check` (and `claim`) calls of this client travel together as one batch
   * request per turn of the event loop; each caller still gets its own answer or error.
   * On by default (a lone call leaves at once); `false` sends one request per call.
   */
  coalesce?: boolean | CoalesceOptions;
}

const seg = encodeURIComponent;
const timeOf = (t: string | Date) => (typeof t === "string" ? t : t.toISOString());

/** "?a=1&b=2" of the parameters given (repeated for a list), or "". */
function queryString(params: Record<string, string | number | readonly string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of typeof value === "object" ? value : value === undefined ? [] : [value]) search.append(name, String(one));
  }
  return search.size > 0 ? `?${search}` : "";
}
// A waiting begin answers after at most waitSeconds; the call's timeout leaves it this much more.
const WAIT_MARGIN_MS = 5000;

/** A typed client for every endpoint of weir's machine API. */
export class WeirClient {
  readonly transport: Transport;
  /** The attempts begin handed out: complete and release send them (the fencing token) when the caller does not. */
  private readonly attempts = new AttemptBook();
  private readonly timeoutMs: number;
  private readonly checks?: Coalescer<CheckRequest, CheckResponse>;
  private readonly claims?: Coalescer<ClaimRequest, ClaimResponse>;

  constructor(options: WeirClientOptions) {
    this.transport = new Transport(options);
    this.timeoutMs = options.timeoutMs ?? 5000;
    if (options.coalesce !== false) {
      const limits = options.coalesce === true ? {} : options.coalesce;
      this.checks = new Coalescer(
        { one: (item, call) => this.checkNow(item, call), batch: (items, call) => this.checkBatch(items, call), keyOf: (item) => JSON.stringify([item.serviceId, item.messageId]) },
        limits,
      );
      this.claims = new Coalescer(
        { one: (item, call) => this.claimNow(item, call), batch: (items, call) => this.claimBatch(items, call), keyOf: (item) => JSON.stringify([item.consumerGroup, item.messageId]) },
        limits,
      );
    }
  }

  private async get<T>(path: string, call?: CallOptions): Promise<T> {
    return (await this.transport.json<T>("GET", path, undefined, call)).body;
  }

  // ---- last-seen dedup ----

  /** One key's decision; concurrent calls are coalesced into batch requests unless `coalesce: false`. */
  check(input: CheckRequest, call?: CallOptions): Promise<CheckResponse> {
    return this.checks ? this.checks.submit(input, call) : this.checkNow(input, call);
  }

  private async checkNow(input: CheckRequest, call?: CallOptions): Promise<CheckResponse> {
    const { body, requestId } = await this.transport.json("POST", "/api/v1/check", input, call);
    return checkDecision(body, input, requestId);
  }

  /** Up to 1000 checks; results in the items' order. */
  async checkBatch(items: readonly CheckRequest[], call?: CallOptions): Promise<CheckResponse[]> {
    const { body, requestId } = await this.transport.json("POST", "/api/v1/check/batch", { items }, call);
    return batchDecisions(body, items, requestId, checkDecision);
  }

  /**
   * Takes back a `new` or `changed` after the side effect failed: the key goes back to the
   * previous hash and version (no state after a `new`). 409 when the key is no longer at `version`.
   */
  async revert(input: RevertRequest, call?: CallOptions): Promise<RevertResponse> {
    return (await this.transport.json<RevertResponse>("POST", "/api/v1/check/revert", input, call)).body;
  }

  // ---- window dedup ----

  /** Claims a message for its group's window; concurrent calls are coalesced like `check`'s. */
  claim(input: ClaimRequest, call?: CallOptions): Promise<ClaimResponse> {
    return this.claims ? this.claims.submit(input, call) : this.claimNow(input, call);
  }

  private async claimNow(input: ClaimRequest, call?: CallOptions): Promise<ClaimResponse> {
    const { body, requestId } = await this.transport.json("POST", "/api/v1/claim", input, call);
    return claimDecision(body, input, requestId);
  }

  async claimBatch(items: readonly ClaimRequest[], call?: CallOptions): Promise<ClaimResponse[]> {
    const { body, requestId } = await this.transport.json("POST", "/api/v1/claim/batch", { items }, call);
    return batchDecisions(body, items, requestId, claimDecision);
  }

  /**
   * Forgets a claim whose work failed, so the redelivery is claimed again. Safe to repeat
   * (`released: false` when none is inside its window); pass the claim's `windowStartedAt`
   * as `claimedAt` so a later claim by another consumer is refused (409), never released.
   */
  async releaseClaim(input: ReleaseClaimInput, call?: CallOptions): Promise<ReleaseClaimResponse> {
    return (await this.transport.json<ReleaseClaimResponse>("POST", "/api/v1/claim/release", input, call)).body;
  }

  listConsumerGroups(call?: CallOptions): Promise<ConsumerGroupList> {
    return this.get("/api/v1/consumer-groups", call);
  }

  async putConsumerGroup(id: string, input: PutConsumerGroupInput, call?: CallOptions): Promise<PutConsumerGroupResponse> {
    return (await this.transport.json<PutConsumerGroupResponse>("PUT", `/api/v1/consumer-groups/${seg(id)}`, input, call)).body;
  }

  /** What a TTL change would do, without saving it. */
  async previewTtl(id: string, ttlSeconds: number, call?: CallOptions): Promise<TtlPreview> {
    return (await this.transport.json<TtlPreview>("POST", `/api/v1/consumer-groups/${seg(id)}/ttl-preview`, { ttlSeconds }, call)).body;
  }

  ttlChanges(id: string, query: { limit?: number; before?: number } = {}, call?: CallOptions): Promise<TtlChanges> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.before !== undefined) params.set("before", String(query.before));
    const qs = params.size > 0 ? `?${params}` : "";
    return this.get(`/api/v1/consumer-groups/${seg(id)}/ttl-changes${qs}`, call);
  }

  async cleanup(input: CleanupRequest = {}, call?: CallOptions): Promise<CleanupResponse> {
    return (await this.transport.json<CleanupResponse>("POST", "/api/v1/cleanup", input, call)).body;
  }

  // ---- idempotency keys ----

  /**
   * Begins the work behind a key. In progress (409) and mismatch (422) are outcomes, not exceptions.
   * With `waitSeconds`, waits for another caller's result (the call's timeout grows to cover the wait).
   */
  async begin(scope: string, input: BeginInput, call?: CallOptions): Promise<BeginResult> {
    const wait = input.waitSeconds ? { timeoutMs: Math.max(this.timeoutMs, input.waitSeconds * 1000 + WAIT_MARGIN_MS) } : {};
    const response = await this.transport.send("POST", `/api/v1/idempotency/${seg(scope)}/begin`, input, { ...wait, ...call });
    const body = response.body as { outcome?: unknown; attempt?: unknown; error?: Record<string, unknown> } | undefined;
    if (response.status === 201 && body?.outcome === "started") {
      this.attempts.remember(scope, input.key, Number(body.attempt));
      return body as BeginResult;
    }
    if (response.status === 200 && body?.outcome === "completed") return body as BeginResult;
    const error = body?.error;
    if (response.status === 409 && error?.code === "in_progress") {
      const retryAfter = Number(response.headers.get("retry-after") ?? Number.NaN);
      return {
        outcome: "in_progress",
        scope,
        key: input.key,
        attempt: Number(error.attempt),
        startedAt: String(error.startedAt),
        lockedUntil: String(error.lockedUntil),
        waited: error.waited === true,
        firstRef: typeof error.firstRef === "string" ? error.firstRef : null,
        message: String(error.message),
        ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
      };
    }
    if (response.status === 422 && error?.code === "mismatch") {
      return {
        outcome: "mismatch",
        scope,
        key: input.key,
        storedHash: String(error.storedHash),
        requestHash: String(error.requestHash),
        firstRef: typeof error.firstRef === "string" ? error.firstRef : null,
        message: String(error.message),
      };
    }
    if (response.status < 300) throw new WeirProtocolError("begin: the answer carries no outcome", response.requestId);
    throw apiError(response);
  }

  /** Stores the response; `attempt` defaults to the one this client's begin of the key returned. A stale attempt gets 409. */
  async complete(scope: string, input: CompleteInput, call?: CallOptions): Promise<CompleteResponse> {
    const attempt = this.attempts.attemptFor(scope, input.key, input.attempt);
    const path = `/api/v1/idempotency/${seg(scope)}/complete`;
    const { body } = await this.transport.json<CompleteResponse>("POST", path, { ...input, attempt }, call);
    this.attempts.forget(scope, input.key, attempt);
    return body;
  }

  /** Gives a started key back so a retry can begin it again. Safe to repeat; `attempt` defaults as for complete. */
  async release(scope: string, input: ReleaseInput, call?: CallOptions): Promise<ReleaseResponse> {
    const attempt = this.attempts.attemptFor(scope, input.key, input.attempt);
    const path = `/api/v1/idempotency/${seg(scope)}/release`;
    const { body } = await this.transport.json<ReleaseResponse>("POST", path, { ...input, attempt }, call);
    this.attempts.forget(scope, input.key, attempt);
    return body;
  }

  /** A key's state (status, attempt, lock, expiry, request hash, stored response); 404 when absent or expired. */
  getIdempotencyKey(scope: string, key: string, call?: CallOptions): Promise<IdempotencyKeyState> {
    return this.get(`/api/v1/idempotency/${seg(scope)}/${seg(key)}`, call);
  }

  /** Forgets a completed key (operator permission), audited with the reason; the next begin runs the work again. */
  async deleteIdempotencyKey(scope: string, key: string, reason: string, call?: CallOptions): Promise<DeleteKeyResponse> {
    const path = `/api/v1/idempotency/${seg(scope)}/${seg(key)}`;
    return (await this.transport.json<DeleteKeyResponse>("DELETE", path, { reason }, call)).body;
  }

  getScope(id: string, call?: CallOptions): Promise<IdempotencyScope> {
    return this.get(`/api/v1/idempotency-scopes/${seg(id)}`, call);
  }

  async putScope(id: string, input: PutScopeInput, call?: CallOptions): Promise<PutScopeResponse> {
    return (await this.transport.json<PutScopeResponse>("PUT", `/api/v1/idempotency-scopes/${seg(id)}`, input, call)).body;
  }

  /** A bulk release's preview: the scope's stuck keys (in progress, lock run out), counted, and the oldest. */
  stuckKeys(scope: string, call?: CallOptions): Promise<StuckPreview> {
    return this.get(`/api/v1/idempotency-scopes/${seg(scope)}/stuck`, call);
  }

  /** Releases every stuck key of the scope (operator permission), audited; above 100 keys send the preview's confirmWord. */
  async releaseStuck(scope: string, input: ReleaseStuckInput, call?: CallOptions): Promise<ReleaseStuckResult> {
    return (await this.transport.json<ReleaseStuckResult>("POST", `/api/v1/idempotency-scopes/${seg(scope)}/release-stuck`, input, call)).body;
  }

  /** Stored responses older than maxAgeSeconds are removed by the retention job; null removes the limit. */
  async setScopeRetention(scope: string, input: RetentionInput, call?: CallOptions): Promise<RetentionChange> {
    return (await this.transport.json<RetentionChange>("PUT", `/api/v1/idempotency-scopes/${seg(scope)}/retention`, input, call)).body;
  }

  // ---- decision journal ----

  /** One page of a subject's decisions in a time range, oldest first, with the minutes whose entries were dropped (`gaps`). */
  journalRange(mode: JournalMode, subject: string, query: JournalRangeQuery, call?: CallOptions): Promise<JournalRangePage> {
    const { from, to, decision, caller, key, cursor, limit } = query;
    const qs = queryString({ from: timeOf(from), to: timeOf(to), decision: typeof decision === "string" ? [decision] : decision, caller, key, cursor, limit });
    return this.get(`/api/v1/journal/${seg(mode)}/${seg(subject)}${qs}`, call);
  }

  /** Every entry of a range, oldest first, page after page (each entry once, however the journal grows meanwhile). */
  async *journalEntries(mode: JournalMode, subject: string, query: Omit<JournalRangeQuery, "cursor">, call?: CallOptions): AsyncGenerator<JournalEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.journalRange(mode, subject, { ...query, cursor }, call);
      yield* page.entries;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** One key's decisions, newest first; pass `nextBefore` as `before` for older ones. */
  journalKey(mode: JournalMode, subject: string, key: string, query: { limit?: number; before?: string } = {}, call?: CallOptions): Promise<JournalKeyPage> {
    return this.get(`/api/v1/journal/${seg(mode)}/${seg(subject)}/keys/${seg(key)}${queryString(query)}`, call);
  }

  journalLevel(mode: JournalMode, subject: string, call?: CallOptions): Promise<JournalLevel> {
    return this.get(`/api/v1/journal/${seg(mode)}/${seg(subject)}/level`, call);
  }

  /** What the journal keeps of a subject's answers (operate permission, audited). */
  async setJournalLevel(mode: JournalMode, subject: string, input: SetJournalLevelInput, call?: CallOptions): Promise<SetJournalLevelResponse> {
    return (await this.transport.json<SetJournalLevelResponse>("PUT", `/api/v1/journal/${seg(mode)}/${seg(subject)}/level`, input, call)).body;
  }

  // ---- services ----

  async listServices(call?: CallOptions): Promise<Service[]> {
    return (await this.get<{ services: Service[] }>("/api/v1/services", call)).services;
  }

  getService(id: string, call?: CallOptions): Promise<Service> {
    return this.get(`/api/v1/services/${seg(id)}`, call);
  }

  async putService(id: string, settings: ServiceSettings, call?: CallOptions): Promise<Service> {
    return (await this.transport.json<Service>("PUT", `/api/v1/services/${seg(id)}`, settings, call)).body;
  }

  /** What check would answer for a payload (JSON text, kept exact), and its normalised canonical form; writes nothing. */
  async explain(serviceId: string, input: ExplainRequest, call?: CallOptions): Promise<Explanation> {
    return (await this.transport.json<Explanation>("POST", `/api/v1/services/${seg(serviceId)}/explain`, input, call)).body;
  }

  getKey(serviceId: string, messageId: string, call?: CallOptions): Promise<KeyDetail> {
    return this.get(`/api/v1/services/${seg(serviceId)}/keys/${seg(messageId)}`, call);
  }

  /** Payload history older than maxAgeSeconds is removed by the retention job; null removes the limit. */
  async setServiceRetention(serviceId: string, input: RetentionInput, call?: CallOptions): Promise<RetentionChange> {
    return (await this.transport.json<RetentionChange>("PUT", `/api/v1/services/${seg(serviceId)}/retention`, input, call)).body;
  }

  // ---- erasure ----

  /** What erasing one key, or every key of a subject, would remove: rows per table. Writes nothing. */
  async previewErase(selection: EraseSelection, call?: CallOptions): Promise<ErasePreview> {
    return (await this.transport.json<ErasePreview>("POST", "/api/v1/erasures/preview", selection, call)).body;
  }

  /** Erases the selection everywhere weir keeps it; the audit keeps that it happened, never the data. */
  async erase(input: EraseInput, call?: CallOptions): Promise<EraseResult> {
    return (await this.transport.json<EraseResult>("POST", "/api/v1/erasures", input, call)).body;
  }

  // ---- access (admin tokens) ----

  async listTokens(query: { includeRevoked?: boolean } = {}, call?: CallOptions): Promise<ApiToken[]> {
    const qs = query.includeRevoked ? "?includeRevoked=true" : "";
    return (await this.get<{ tokens: ApiToken[] }>(`/api/v1/tokens${qs}`, call)).tokens;
  }

  /** The secret is in the answer once; weir keeps only its hash. */
  async createToken(input: CreateTokenInput, call?: CallOptions): Promise<CreatedToken> {
    return (await this.transport.json<CreatedToken>("POST", "/api/v1/tokens", input, call)).body;
  }

  /** The reason is required: the audit log keeps why every token was revoked. */
  async revokeToken(id: string, reason: string, call?: CallOptions): Promise<ApiToken> {
    return (await this.transport.json<{ token: ApiToken }>("DELETE", `/api/v1/tokens/${seg(id)}`, { reason }, call)).body.token;
  }

  /** Every console user (admin), with the live API tokens each created. */
  async listUsers(call?: CallOptions): Promise<(User & { disabled: boolean; createdAt: string; liveTokens: number })[]> {
    return (await this.get<{ users: (User & { disabled: boolean; createdAt: string; liveTokens: number })[] }>("/api/v1/users", call)).users;
  }

  async createUser(input: CreateUserInput, call?: CallOptions): Promise<User> {
    return (await this.transport.json<User>("POST", "/api/v1/users", input, call)).body;
  }

  async setUserRole(id: string, input: SetUserRoleInput, call?: CallOptions): Promise<User> {
    return (await this.transport.json<User>("PUT", `/api/v1/users/${seg(id)}/role`, input, call)).body;
  }

  /**
   * Disables a user (admin): their sessions end and sign-in refuses them until a password reset. The API
   * tokens they created keep working unless `revokeTokens: true`.
   */
  async disableUser(id: string, input: DisableUserInput, call?: CallOptions): Promise<User & { disabled: boolean; tokensRevoked: number }> {
    return (await this.transport.json<User & { disabled: boolean; tokensRevoked: number }>("POST", `/api/v1/users/${seg(id)}/disable`, input, call)).body;
  }

  /** Sets a user's password (admin); without one, weir generates it and answers it once. */
  async resetUserPassword(id: string, input: ResetPasswordInput, call?: CallOptions): Promise<{ id: string; email: string; password?: string }> {
    return (await this.transport.json<{ id: string; email: string; password?: string }>("POST", `/api/v1/users/${seg(id)}/password`, input, call)).body;
  }

  // ---- operations ----

  /** The store's reachability; a 503 here is an answer ("unavailable"), returned without retries. */
  async health(call?: CallOptions): Promise<Health> {
    const response = await this.transport.send("GET", "/api/health", undefined, { retries: 0, ...call });
    if (response.status !== 200 && response.status !== 503) throw apiError(response);
    return response.body as Health;
  }

  /** Prometheus text exposition. */
  async metrics(call?: CallOptions): Promise<string> {
    return (await this.transport.json<string>("GET", "/api/metrics", undefined, call)).body;
  }

  openApi(call?: CallOptions): Promise<Record<string, unknown>> {
    return this.get("/api/v1/openapi.json", call);
  }
}

export function createWeirClient(options: WeirClientOptions): WeirClient {
  return new WeirClient(options);
}
