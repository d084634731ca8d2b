/**
 * A pool of units (requests in flight, idempotency waiters) shared among credentials so that
 * one cannot take it all. Each holder may hold up to its share (its own, or the default: a
 * quarter of the pool, at least SHARE_FLOOR). While the pool is full, a holder still below its
 * fair part of the current load (the pool divided by the holders) is admitted up to a ceiling
 * past the pool; the heaviest holder never is, so shedding starts with it.
 *
 * A pool may also be contended before it is full (answers slow down: `contended` is then a
 * latency-driven limit below the pool). Then, among two holders or more, one holding at least
 * SHARE_FLOOR and more than its fair part of the contended pool is refused, so one busy caller
 * cannot slow the others down; a caller alone is held by the pool only.
 */
export type Admission = "admitted" | "over_share" | "full";

export interface FairShareOptions {
  /** Units in the pool now (it may move: the adaptive limit). */
  capacity: () => number;
  /** Units past which the pool is contended (at most `capacity`); undefined: only a full pool is. */
  contended?: () => number;
  /** One holder's share when it has none of its own; undefined: a quarter of the pool, at least SHARE_FLOOR. */
  share?: () => number | undefined;
}

/** No default share goes below this (or the pool itself, when smaller), so a small pool still serves a busy caller. */
export const SHARE_FLOOR = 8;

/** The default share of a pool: a quarter, at least SHARE_FLOOR, at most the pool. */
export function defaultShare(capacity: number): number {
  return Math.min(capacity, Math.max(SHARE_FLOOR, Math.floor(capacity / 4)));
}

/** How far past a full pool holders below their fair part may go: an eighth of it, at least one. */
export const ceilingOf = (capacity: number) => capacity + Math.max(1, Math.floor(capacity / 8));

export class FairShare {
  private readonly held = new Map<string, number>();
  private count = 0;

  constructor(private readonly o: FairShareOptions) {}

  get total(): number {
    return this.count;
  }

  /** Holders with at least one unit. */
  get holders(): number {
    return this.held.size;
  }

  /** The most units one holder has (0 when none): the holder a full pool refuses first. */
  heaviest(): number {
    let most = 0;
    for (const count of this.held.values()) if (count > most) most = count;
    return most;
  }

  heldBy(holder: string): number {
    return this.held.get(holder) ?? 0;
  }

  /** The share `holder` may use: its own when given, else the configured or the default share. */
  shareOf(own?: number | null): number {
    const capacity = this.o.capacity();
    return Math.max(1, own ?? this.o.share?.() ?? defaultShare(capacity));
  }

  /**
   * Takes one unit for `holder` unless it is at its share (over_share) or the pool must shed it
   * (full). `mayBeContended` false: the holder is known to be light by some other measure, so a
   * contended pool does not refuse it (a full one still does).
   */
  tryAcquire(holder: string, ownShare?: number | null, mayBeContended = true): Admission {
    const capacity = this.o.capacity();
    const contended = Math.min(capacity, this.o.contended?.() ?? capacity);
    const mine = this.heldBy(holder);
    if (this.count >= ceilingOf(capacity)) return "full";
    if (this.count >= contended && (mayBeContended || this.count >= capacity)) {
      const holders = this.held.size + (mine === 0 ? 1 : 0);
      const heavy = mine + 1 > contended / holders;
      if (this.count >= capacity ? heavy : heavy && holders > 1 && mine >= SHARE_FLOOR) return "full";
    }
    if (mine >= this.shareOf(ownShare)) return "over_share";
    this.held.set(holder, mine + 1);
    this.count++;
    return "admitted";
  }

  release(holder: string): void {
    const mine = this.held.get(holder);
    if (mine === undefined) return;
    if (mine <= 1) this.held.delete(holder);
    else this.held.set(holder, mine - 1);
    this.count--;
  }
}
