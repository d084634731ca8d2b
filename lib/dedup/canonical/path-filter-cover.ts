import type { Normalise, PathFilter } from "./path-filter";

/** What a null filter means: the whole value is hashed. */
const WHOLE: PathFilter = { ignored: false, keepsOnlyListed: false, children: new Map() };

/**
 * True when `newer` hashes no more of a payload than `older` does (and in the same places), so
 * two payloads equal under `older` are equal under `newer` too. Conservative: false whenever it
 * cannot tell. A key stored under `older` may then move to `newer` on a duplicate without ever
 * storing the hash of a payload other than the one that was accepted.
 */
export function hashesNoMoreThan(newer: PathFilter | null, older: PathFilter | null): boolean {
  return normalisesAtLeast(newer?.normalise, older?.normalise) && covers(older ?? WHOLE, newer ?? WHOLE);
}

/** Each normalisation only makes more payloads equal: newer must apply every one older does. */
function normalisesAtLeast(newer: Normalise | undefined, older: Normalise | undefined): boolean {
  if (older === undefined) return true;
  if (newer === undefined) return !older.numbers && !older.nulls && !older.emptyContainers;
  return (newer.numbers || !older.numbers) && (newer.nulls || !older.nulls) && (newer.emptyContainers || !older.emptyContainers);
}

function covers(older: PathFilter, newer: PathFilter): boolean {
  if (newer.ignored) return true;
  if (older.ignored) return false;
  if (older.keepsOnlyListed) {
    // Older keeps only its listed members here: newer may keep only listed members, each covered.
    if (!newer.keepsOnlyListed) return false;
    for (const [member, newerChild] of newer.children) {
      const olderChild = older.children.get(member);
      if (olderChild === undefined || !covers(olderChild, newerChild)) return false;
    }
    return true;
  }
  // Older keeps every member here but for what its children drop: newer must drop that too.
  for (const [member, olderChild] of older.children) {
    const newerChild = newer.children.get(member) ?? (newer.keepsOnlyListed ? undefined : WHOLE);
    if (newerChild !== undefined && !covers(olderChild, newerChild)) return false;
  }
  return true;
}
