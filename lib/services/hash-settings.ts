import type { HashSettings, Normalisation } from "@/lib/dedup/canonical/path-filter";

const sortedSet = <T extends string>(items: readonly T[]) => [...new Set(items)].sort();
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/**
 * What a service registered without naming its normalisations gets: all three. Producers that
 * re-serialise (`1.0` for `1`), fields that turn null or vanish, and ignored timestamps that leave
 * their parent empty are changes no projection means; a service whose nulls carry meaning says so.
 * Services registered before normalisation existed keep none until their settings name some.
 */
export const RECOMMENDED_NORMALISE: readonly Normalisation[] = ["empty_containers", "nulls", "numbers"];

export interface StoredHashSettings {
  ignoredPaths: string[];
  includedPaths: string[];
  normalise: string[];
}

/** Lists as a service keeps them: once each, sorted, so reordering a list is no change of settings. */
export function storedHashSettings(settings: HashSettings): StoredHashSettings {
  return {
    ignoredPaths: sortedSet(settings.ignoredPaths),
    includedPaths: sortedSet(settings.includedPaths),
    normalise: sortedSet(settings.normalise ?? []),
  };
}

/**
 * Whether saving `next` (as `storedHashSettings` keeps it) starts a new hash settings version: the
 * rule the store applies when it saves (upsertService compares the lists element by element).
 */
export function startsNewHashVersion(current: HashSettings, next: HashSettings): boolean {
  return (
    !sameList(current.ignoredPaths, next.ignoredPaths) ||
    !sameList(current.includedPaths, next.includedPaths) ||
    !sameList(current.normalise ?? [], next.normalise ?? [])
  );
}
