import type { Actor } from "@/lib/auth/actor";
import { FairShare } from "@/lib/auth/fair-share";
import { RecentCount } from "@/lib/auth/recent-count";
import { OverloadedError, RateLimitedError } from "@/lib/errors";
import { countCaller, watchConcurrency, watchHeaviestCaller, type CallerOutcome } from "@/lib/metrics";
import { AdaptiveConcurrencyLimit } from "./adaptive-limit";
import type { Caller } from "./caller";
import { RateQuotas } from "./rate-quotas";
import { RefusalBackoff } from "./refusal-backoff";
import { RefusalHold, type RefusalTiming } from "./refusal-hold";
import { StartRates } from "./start-rates";

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
  /** Between the end of its body (or authentication, without one) and the end of the request or the start of a wait. */
  working?: boolean;
}

/** What the gate saw over the last ten seconds (/api/health). */
export interface GateState {
  inFlight: number;
  limit: number;
  maxLimit: number;
  /** Requests at work past which the busiest caller is refused while others call: where answers start to slow. */
  contendedAt: number;
  callers: number;
  heaviestCaller: number;
  shed: number;
  inFlightLimited: number;
  rateLimited: number;
  /** Refusals whose answer waits for the caller's Retry-After, because it keeps coming back early (refusal-hold.ts). */
  heldRefusals: number;
}

/** A refusal the gate made. */
type Refusal = OverloadedError | RateLimitedError;

/** The metrics label of a caller: its token id, or one word for every other kind (bounded). */
function labelOf(actor: Actor | undefined, key: string): string {
  if (actor?.via === "token") return actor.id.slice("token:".length);
  if (actor?.via === "session" || key.startsWith("session:")) return "session";
  return key.startsWith("token:") ? "unknown" : "anonymous";
}

/** The contended limit never goes below this, so two callers keep at least SHARE_FLOOR (8) at work each. */
const CONTENDED_FLOOR = 16;

/**
 * The door's capacity, shared per credential (lib/auth/fair-share.ts): the node's limit of
 * requests in flight (adaptive-limit.ts) is the pool, each caller may hold its share of it, and
 * a full pool sheds the heaviest caller first. Once authenticated, an API token's own limits
 * (in flight, per second) apply.
 *
 * Slots are not CPU: a caller within its share can still keep the node busy. So the requests
 * at work (body read, not waiting by design) are shared too: a second, always adaptive limit on
 * their answers says where the node is contended (answers over twice their usual time), and
 * past it, while others call, the busiest caller's next request is refused (503 overloaded).
 *
 * A refusal for the caller's own doing is answered at once, unless the caller keeps coming back
 * before its Retry-After: then it waits for it (refusal-hold.ts), so a loop that ignores
 * Retry-After costs the node one refusal per connection per Retry-After, not thousands a second.
 */
export class CapacityGate {
  readonly shares: FairShare;
  private readonly work: FairShare;
  private readonly contention: AdaptiveConcurrencyLimit;
  private readonly rates = new RateQuotas();
  private readonly backoff = new RefusalBackoff();
  private readonly hold = new RefusalHold();
  private readonly starts = new StartRates();
  private readonly timings = new WeakMap<Refusal, RefusalTiming>();
  private readonly recent = { shed: new RecentCount(), inFlightLimited: new RecentCount(), rateLimited: new RecentCount() };
  private readonly countShed: () => void;

  /** `perCaller`: every caller's share (WEIR_MAX_IN_FLIGHT_PER_CREDENTIAL); undefined: a quarter of the limit, at least 8. */
  constructor(
    readonly limiter: AdaptiveConcurrencyLimit,
    perCaller?: number,
  ) {
    this.contention = new AdaptiveConcurrencyLimit({ max: limiter.max, min: Math.min(limiter.max, CONTENDED_FLOOR) });
    this.shares = new FairShare({ capacity: () => limiter.limit, share: () => perCaller });
    this.work = new FairShare({ capacity: () => limiter.max, contended: () => this.contention.limit, share: () => Number.POSITIVE_INFINITY });
    this.countShed = watchConcurrency(limiter);
    watchHeaviestCaller(() => this.heaviest());
  }

  /** Takes a slot for the caller, or throws: 503 overloaded while the node sheds it, 429 when it is at its own share. */
  enter(caller: Caller): Ticket {
    const admission = this.shares.tryAcquire(caller.key, caller.actor?.limits?.maxInFlight);
    if (admission === "full") {
      this.countShed();
      // The node as a whole is full: every caller's refusal is answered at once, so clients fail over fast.
      throw this.refuse(caller, "shed", new OverloadedError(1), undefined, false);
    }
    if (admission === "over_share") throw this.refuse(caller, "in_flight_limited", this.inFlightError(caller.key, caller.actor));
    this.contention.acquire();
    return { caller, startedAt: this.limiter.acquire() };
  }

  /**
   * `status`: what was answered, undefined when the answer's time says nothing of the node's load
   * (a stalled body, a long poll). The node's limit reads every other answer but refusals of the
   * caller (4xx); the contention limit only answers that did the work, since a fast 503 would hide
   * the slow ones it stands for.
   */
  leave(ticket: Ticket, status: number | undefined): void {
    this.rest(ticket);
    if (!ticket.shareReturned) this.shares.release(ticket.caller.key);
    this.limiter.release(ticket.startedAt, status !== undefined && (status < 400 || status >= 500));
    this.contention.release(ticket.startedAt, status !== undefined && status < 400);
  }

  /**
   * After authentication: a token's own limits, which the gate could not know for a token this
   * node had not looked up yet. Throws a 429 when the token is over them.
   */
  admit(ticket: Ticket, actor: Actor): void {
    const limits = actor.limits;
    const label = labelOf(actor, ticket.caller.key);
    if (limits?.maxInFlight && this.shares.heldBy(ticket.caller.key) > limits.maxInFlight) {
      const error = this.refuse(ticket.caller, "in_flight_limited", this.inFlightError(ticket.caller.key, actor), label);
      this.shares.release(ticket.caller.key);
      ticket.shareReturned = true;
      throw error;
    }
    const wait = limits?.requestsPerSecond ? this.rates.take(actor.id, limits.requestsPerSecond) : 0;
    if (wait > 0) {
      const message = `this token may send ${limits!.requestsPerSecond} requests per second to each node; retry in ${wait} s`;
      throw this.refuse(ticket.caller, "rate_limited", new CallerLimitError(message, wait), label);
    }
    countCaller(label, "admitted");
  }

  /** How long a caller refused for its own doing (a stalled body, its load) should wait: longer each time it comes back. */
  backoffFor(ticket: Ticket): number {
    return this.backoff.retryAfter(ticket.caller.key, this.shares.shareOf(ticket.caller.actor?.limits?.maxInFlight));
  }

  /**
   * The request starts its work (its body is in): refused with 503 overloaded when the node is
   * contended and its caller the busiest. A caller starting no more than its fair part of the
   * work lately is never the busiest, however many of its requests a slow node holds up.
   */
  startWork(ticket: Ticket): void {
    if (ticket.working) return;
    const key = ticket.caller.key;
    const light = this.starts.startWithinFairPart(key, this.work.holders + (this.work.heldBy(key) === 0 ? 1 : 0));
    if (this.work.tryAcquire(key, undefined, !light) !== "admitted") {
      this.countShed();
      throw this.refuse(ticket.caller, "shed", new OverloadedError(this.backoffFor(ticket)));
    }
    ticket.working = true;
  }

  /** The request stops working: it ended, or it waits by design (an idempotency begin with waitSeconds). */
  rest(ticket: Ticket): void {
    if (!ticket.working) return;
    this.work.release(ticket.caller.key);
    ticket.working = false;
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
      heldRefusals: this.hold.held,
    };
  }

  /**
   * When to answer `error`: at once, unless it refused its caller for its own doing (here, or
   * as the heaviest caller of the statement queue) and the caller keeps coming back before its
   * Retry-After.
   */
  timingOf(error: unknown, ticket: Ticket | undefined): RefusalTiming {
    const decided = this.timings.get(error as Refusal);
    if (decided) return decided;
    if (ticket && error instanceof OverloadedError && error.callersOwnLoad) return this.timingFor(ticket.caller, error);
    return { kind: "now" };
  }

  /** Counts a held answer; the function returned gives it back (once, however often it is called). */
  holding(): () => void {
    this.hold.hold();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.hold.released();
    };
  }

  private heaviest(): number {
    return this.shares.heaviest();
  }

  private inFlightError(key: string, actor: Actor | undefined): CallerLimitError {
    const share = this.shares.shareOf(actor?.limits?.maxInFlight);
    const wait = this.backoff.retryAfter(key, share);
    return new CallerLimitError(`this credential already has ${this.shares.heldBy(key)} requests in flight on this node, its share is ${share}; retry in ${wait} s`, wait);
  }

  /**
   * Counts the refusal and returns `error` to throw. A refusal for the caller's own doing (its
   * share, its limits, its load while others call) is answered late when the caller keeps coming
   * back before its Retry-After (`ownDoing`; refusal-hold.ts).
   */
  private refuse<E extends Refusal>(caller: Caller, outcome: Exclude<CallerOutcome, "admitted">, error: E, label = labelOf(caller.actor, caller.key), ownDoing = true): E {
    const recent = outcome === "shed" ? this.recent.shed : outcome === "rate_limited" ? this.recent.rateLimited : this.recent.inFlightLimited;
    recent.add();
    countCaller(label, outcome);
    if (ownDoing) this.timings.set(error, this.timingFor(caller, error));
    return error;
  }

  private timingFor(caller: Caller, error: Refusal): RefusalTiming {
    return this.hold.timing(caller.key, error.retryAfterSeconds, this.shares.shareOf(caller.actor?.limits?.maxInFlight));
  }
}
