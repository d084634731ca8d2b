import { addBounded } from "./bounded-map";

/** Callers tracked; past it the one seen first is forgotten. */
const MAX_CALLERS = 10_000;
/** The decay's time constant: a rate is about the last second's. */
const TAU_MS = 1000;

interface Decaying {
  value: number;
  at: number;
}

/**
 * How fast each caller has been starting work lately (an exponentially decaying count, about
 * the last second's), so that contention can be laid at the door of the caller who sends the
 * most rather than the one holding the most at that instant. Requests held up by a slow node
 * pile up for every caller alike, and a steady caller's pile can then outnumber a flooder's
 * (whose excess is refused); its rate cannot.
 */
export class StartRates {
  private readonly callers = new Map<string, Decaying>();
  private readonly all: Decaying = { value: 0, at: 0 };

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Counts one start for `key`, and says whether its starts, this one included, are no more
   * than its fair part of all starts among `callers` callers. One call per request, so the hot
   * path decays each count once.
   */
  startWithinFairPart(key: string, callers: number): boolean {
    const now = this.now();
    const mine = bump(this.callers.get(key) ?? addBounded(this.callers, key, { value: 0, at: now }, MAX_CALLERS), now);
    return mine <= bump(this.all, now) / Math.max(1, callers);
  }
}

/** Decays `decaying` to `now`, adds one, and returns the new value. */
function bump(decaying: Decaying, now: number): number {
  decaying.value = decaying.value * Math.exp(-(now - decaying.at) / TAU_MS) + 1;
  decaying.at = now;
  return decaying.value;
}
