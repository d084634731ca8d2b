/**
 * Splits items into rounds of distinct keys, keeping the order of items that
 * share a key: item k of a key only runs after item k-1 of that key committed.
 */
export function splitRounds<T>(items: readonly T[], keyOf: (item: T) => string): number[][] {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(index);
  });
  return rounds;
}
