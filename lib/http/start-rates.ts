/** Callers tracked; past it the one seen longest ago is forgotten. */
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

  /** Counts one start for `key`. */
  add(key: string): void {
    const now = this.now();
    let mine = this.callers.get(key);
    if (!mine) {
      if (this.callers.size >= MAX_CALLERS) this.callers.delete(this.callers.keys().next().value!);
      mine = { value: 0, at: now };
    } else this.callers.delete(key);
    this.callers.set(key, mine);
    bump(mine, now);
    bump(this.all, now);
  }

  /** Whether `key` starts no more than its fair part of all starts, among `callers` callers. */
  withinFairPart(key: string, callers: number): boolean {
    const now = this.now();
    const mine = this.callers.get(key);
    return valueAt(mine, now) <= valueAt(this.all, now) / Math.max(1, callers);
  }
}

function valueAt(decaying: Decaying | undefined, now: number): number {
  return decaying ? decaying.value * Math.exp(-(now - decaying.at) / TAU_MS) : 0;
}

function bump(decaying: Decaying, now: number): void {
  decaying.value = valueAt(decaying, now) + 1;
  decaying.at = now;
}
