import { addBounded } from "./bounded-map";

/** Callers whose Retry-After this node remembers; past it the oldest is forgotten (a forgotten caller's next refusal is answered at once). */
const MAX_CALLERS = 10_000;

/** Refusals answered late at once (sockets held open, a few KB each); past it a refusal is answered at once and its connection closed. */
export const DEFAULT_HOLD_CAPACITY = 10_000;

/** What to do with a refusal's answer: write it now, hold it for `ms`, or write it now and close the connection. */
export type RefusalTiming = { kind: "now" } | { kind: "hold"; ms: number } | { kind: "close" };

const NOW: RefusalTiming = { kind: "now" };
const CLOSE: RefusalTiming = { kind: "close" };

/** Where a caller stands: when its last Retry-After is due, and how many more refusals it may get at once before that. */
interface Standing {
  dueAt: number;
  freeLeft: number;
}

/**
 * Refusals to a caller that keeps coming back before its Retry-After are answered late, once
 * a Retry-After has passed, not at once (a tarpit). Retry-After alone binds only clients that
 * honour it: a loop that sends again the moment it is answered got thousands of refusals a
 * second out of a node, and answering them took the CPU every other caller needed (the
 * fair-capacity fault test's hostile flood: another token's p99 went from 24 ms to 13 s, with
 * 503s). Held, each of its connections costs one refusal per Retry-After.
 *
 * A caller that waits as told sees no change: within one Retry-After it gets `allowance`
 * refusals at once (its share of the requests in flight: a burst already on the way when the
 * first was refused is not early), and once its Retry-After has passed the count starts again.
 * A held answer waits a whole Retry-After from its request's arrival, so a hostile client's
 * connections fall out of step instead of coming back together.
 *
 * The held answer holds a socket, not a slot: the request left the capacity gate when it was
 * refused. At most `capacity` answers are held; past that a refusal is answered at once and its
 * connection closed, so its client pays a new connection for the next.
 */
export class RefusalHold {
  private readonly standing = new Map<string, Standing>();
  private holding = 0;

  constructor(
    private readonly capacity = DEFAULT_HOLD_CAPACITY,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Answers held now. */
  get held(): number {
    return this.holding;
  }

  /** A refusal of `key` telling it to retry in `retryAfterSeconds`, with `allowance` refusals at once per Retry-After: when to answer it. */
  timing(key: string, retryAfterSeconds: number, allowance: number): RefusalTiming {
    const now = this.now();
    const wait = retryAfterSeconds * 1000;
    const standing = this.standing.get(key);
    if (!standing || now >= standing.dueAt) {
      addBounded(this.standing, key, { dueAt: now + wait, freeLeft: allowance - 1 }, MAX_CALLERS);
      return NOW;
    }
    standing.dueAt = Math.max(standing.dueAt, now + wait);
    if (standing.freeLeft > 0) {
      standing.freeLeft--;
      return NOW;
    }
    return this.holding >= this.capacity ? CLOSE : { kind: "hold", ms: wait };
  }

  /** A held answer is on its way (call `released` once it is written or its connection closed). */
  hold(): void {
    this.holding++;
  }

  released(): void {
    this.holding--;
  }
}
