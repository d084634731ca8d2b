import type { Actor } from "@/lib/auth/actor";
import { FairShare } from "@/lib/auth/fair-share";
import { OverloadedError, RateLimitedError } from "@/lib/errors";
import { countCaller, watchConcurrency, watchHeaviestCaller, type CallerOutcome } from "@/lib/metrics";
import { AdaptiveConcurrencyLimit } from "./adaptive-limit";
import type { Caller } from "./caller";
import { RateQuotas } from "./rate-quotas";
import { RecentCount } from "@/lib/auth/recent-count";

/** A 429 that says which of the caller's own limits it reached. */
export class CallerLimitError extends RateLimitedError {
  constructor(message: string, retryAfterSeconds: number) {
    super(retryAfterSeconds);
    this.message = message;
  }
}

/** A request let through the gate: give it back with `leave`. */
export interface Ticket {
  caller: Caller;
  startedAt: number;
  /** Its share was given back when it was refused after authentication, so the next of its burst is judged without it. */
  shareReturned?: boolean;
}

/** What the gate saw over the last ten seconds (/api/health). */
export interface GateState {
  inFlight: number;
  limit: number;
  maxLimit: number;
  /** Requests in flight past which the busiest caller is refused while others call: where answers start to slow. */
  contendedAt: number;
  callers: number;
  heaviestCaller: number;
  shed: number;
  inFlightLimited: number;
  rateLimited: number;
}

/** The metrics label of a caller: its token id, or one word for every other kind (bounded). */
function labelOf(actor: Actor | undefined, key: string): string {
  if (actor?.via === "token") return actor.id.slice("token:".length);
  if (actor?.via === "session" || key.startsWith("session:")) return "session";
  return key.startsWith("token:") ? "unknown" : "anonymous";
}

/** The contended limit never goes below this, so two callers keep at least SHARE_FLOOR each. */
const CONTENDED_FLOOR = 16;

/**
 * The door's capacity, shared per credential (lib/auth/fair-share.ts): the node's limit of
 * requests in flight (adaptive-limit.ts) is the pool, each caller may hold its share of it, and
 * a full pool sheds the heaviest caller first. A second, always adaptive limit on the same
 * answers says where the pool is contended (answers take over twice their usual time): past it
 * the busiest caller is refused while others call, so its load cannot slow them down. Then,
 * once the caller is authenticated, an API token's own limits (in flight, per second) apply.
 */
export class CapacityGate {
  readonly shares: FairShare;
  private readonly contention: AdaptiveConcurrencyLimit;
  private readonly rates = new RateQuotas();
  private readonly recent = { shed: new RecentCount(), inFlightLimited: new RecentCount(), rateLimited: new RecentCount() };
  private readonly countShed: () => void;

  /** `perCaller`: every caller's share (WEIR_MAX_IN_FLIGHT_PER_CALLER); undefined: a quarter of the limit, at least 8. */
  constructor(
    readonly limiter: AdaptiveConcurrencyLimit,
    perCaller?: number,
  ) {
    this.contention = new AdaptiveConcurrencyLimit({ max: limiter.max, min: Math.min(limiter.max, CONTENDED_FLOOR) });
    this.shares = new FairShare({ capacity: () => limiter.limit, contended: () => this.contention.limit, share: () => perCaller });
    this.countShed = watchConcurrency(limiter);
    watchHeaviestCaller(() => this.heaviest());
  }

  /** Takes a slot for the caller, or throws: 503 overloaded while the node sheds it, 429 when it is at its own share. */
  enter(caller: Caller): Ticket {
    const admission = this.shares.tryAcquire(caller.key, caller.actor?.limits?.maxInFlight);
    if (admission === "full") {
      this.refuse(caller, "shed");
      this.countShed();
      throw new OverloadedError(1);
    }
    if (admission === "over_share") {
      this.refuse(caller, "in_flight_limited");
      throw this.inFlightError(caller.key, caller.actor);
    }
    this.contention.acquire();
    return { caller, startedAt: this.limiter.acquire() };
  }

  /** `sample` false: the answer's time says nothing of the node's load (a refusal, a stalled body, a long poll). */
  leave(ticket: Ticket, sample = true): void {
    if (!ticket.shareReturned) this.shares.release(ticket.caller.key);
    this.limiter.release(ticket.startedAt, sample);
    this.contention.release(ticket.startedAt, sample);
  }

  /**
   * After authentication: a token's own limits, which the gate could not know for a token this
   * node had not looked up yet. Throws a 429 when the token is over them.
   */
  admit(ticket: Ticket, actor: Actor): void {
    const limits = actor.limits;
    const label = labelOf(actor, ticket.caller.key);
    if (limits?.maxInFlight && this.shares.heldBy(ticket.caller.key) > limits.maxInFlight) {
      this.refuse(ticket.caller, "in_flight_limited", label);
      const error = this.inFlightError(ticket.caller.key, actor);
      this.shares.release(ticket.caller.key);
      ticket.shareReturned = true;
      throw error;
    }
    const wait = limits?.requestsPerSecond ? this.rates.take(actor.id, limits.requestsPerSecond) : 0;
    if (wait > 0) {
      this.refuse(ticket.caller, "rate_limited", label);
      throw new CallerLimitError(`this token may send ${limits!.requestsPerSecond} requests per second to each node; retry in ${wait} s`, wait);
    }
    countCaller(label, "admitted");
  }

  state(): GateState {
    return {
      inFlight: this.limiter.inFlight,
      limit: this.limiter.limit,
      maxLimit: this.limiter.max,
      contendedAt: this.contention.limit,
      callers: this.shares.holders,
      heaviestCaller: this.heaviest(),
      shed: this.recent.shed.total,
      inFlightLimited: this.recent.inFlightLimited.total,
      rateLimited: this.recent.rateLimited.total,
    };
  }

  private heaviest(): number {
    return this.shares.heaviest();
  }

  private inFlightError(key: string, actor: Actor | undefined): CallerLimitError {
    const share = this.shares.shareOf(actor?.limits?.maxInFlight);
    return new CallerLimitError(`this credential already has ${this.shares.heldBy(key)} requests in flight on this node, its share is ${share}; retry when some finish`, 1);
  }

  private refuse(caller: Caller, outcome: Exclude<CallerOutcome, "admitted">, label = labelOf(caller.actor, caller.key)): void {
    const recent = outcome === "shed" ? this.recent.shed : outcome === "rate_limited" ? this.recent.rateLimited : this.recent.inFlightLimited;
    recent.add();
    countCaller(label, outcome);
  }
}
