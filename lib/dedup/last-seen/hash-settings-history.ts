import { findHashSettings } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { compilePathFilter, type PathFilter } from "@/lib/dedup/canonical/path-filter";

/** Past settings are asked for once per key after a change; this many are kept compiled. */
const MAX_KEPT = 1000;

/**
 * The path filters of a service's hash settings by version. A version's settings never change,
 * so an entry is never stale: no TTL, only a bound on how many are kept.
 */
export class HashSettingsHistory {
  private readonly filters = new Map<string, Promise<PathFilter | null>>();

  filterOf(db: DbOrTx, serviceId: string, hashVersion: number): Promise<PathFilter | null> {
    const key = `${serviceId}\u0000${hashVersion}`;
    let filter = this.filters.get(key);
    if (!filter) {
      if (this.filters.size >= MAX_KEPT) this.filters.delete(this.filters.keys().next().value!);
      filter = findHashSettings(db, serviceId, hashVersion).then((settings) => {
        if (!settings) throw new Error(`service ${serviceId} has no hash settings version ${hashVersion}`);
        return compilePathFilter(settings);
      });
      filter.catch(() => this.filters.delete(key));
      this.filters.set(key, filter);
    }
    return filter;
  }
}

const HISTORY = Symbol.for("weir.hashSettingsHistory");
/** One per process, shared by the API layer and Next's bundles. */
export const hashSettingsHistory: HashSettingsHistory = ((globalThis as Record<symbol, HashSettingsHistory>)[HISTORY] ??=
  new HashSettingsHistory());
