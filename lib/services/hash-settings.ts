import type { HashSettings } from "@/lib/dedup/canonical/path-filter";

const sortedSet = (paths: readonly string[]) => [...new Set(paths)].sort();
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/** Path lists as a service keeps them: once each, sorted, so reordering a list is no change of settings. */
export function storedHashSettings(settings: HashSettings): { ignoredPaths: string[]; includedPaths: string[] } {
  return { ignoredPaths: sortedSet(settings.ignoredPaths), includedPaths: sortedSet(settings.includedPaths) };
}

/**
 * Whether saving `next` (as `storedHashSettings` keeps it) starts a new hash settings version: the
 * rule the store applies when it saves (upsertService compares the lists element by element).
 */
export function startsNewHashVersion(current: HashSettings, next: HashSettings): boolean {
  return !sameList(current.ignoredPaths, next.ignoredPaths) || !sameList(current.includedPaths, next.includedPaths);
}
