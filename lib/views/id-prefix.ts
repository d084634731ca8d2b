const SEPARATORS = new Set(["-", "_", ":", ".", "/", "#"]);
const SAMPLE = 5;
const MAX = 24;

/** An id's head up to and including its first separator ("order-1042" -> "order-"), else its first 3 characters. */
function headOf(id: string): string {
  for (let i = 1; i < Math.min(id.length - 1, MAX); i++) if (SEPARATORS.has(id[i]!)) return id.slice(0, i + 1);
  return id.slice(0, Math.min(3, id.length));
}

/**
 * A prefix example made from a service's own ids, for the key browser's prefix filter: the common
 * prefix of a few of them ("order-10" from "order-1042", "order-1077"), else the first one's head.
 * Null when there are no ids to learn from.
 */
export function examplePrefix(ids: readonly string[]): string | null {
  const sample = ids.slice(0, SAMPLE).filter((id) => id.length > 0);
  if (sample.length === 0) return null;
  let common = sample[0]!;
  for (const id of sample.slice(1)) {
    let n = 0;
    while (n < common.length && n < id.length && common[n] === id[n]) n++;
    common = common.slice(0, n);
  }
  const prefix = sample.length > 1 && common.length > 0 && common !== sample[0] ? common : headOf(sample[0]!);
  return prefix.slice(0, MAX);
}
