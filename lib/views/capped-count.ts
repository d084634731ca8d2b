import { formatCount } from "./format";

/** A list's total counted up to a cap; `capped` means "at least `count`". */
export interface CappedCount {
  count: number;
  capped: boolean;
}

/**
 * Every list total stops counting here: at most this many index entries are
 * read per page view, so a total stays a few milliseconds at 10 M rows.
 */
export const LIST_COUNT_CAP = 10_000;

/** `n` rows counted with `limit cap + 1`: exact up to the cap, "at least the cap" past it. */
export const cappedCount = (n: number, cap = LIST_COUNT_CAP): CappedCount => ({ count: Math.min(n, cap), capped: n > cap });

/** "1,234", or "10,000+" past the cap. */
export const formatCappedCount = (total: CappedCount) => `${formatCount(total.count)}${total.capped ? "+" : ""}`;
