import { findServices, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { compileIgnoredPaths, type IgnoredPathTrie } from "@/lib/dedup/canonical/ignored-paths";
import { NotFoundError } from "@/lib/errors";

/** What the check path needs to know about a service, compiled once. */
export interface ServiceConfig {
  id: string;
  historyDepth: number;
  ignoredPaths: readonly string[];
  ignoredTrie: IgnoredPathTrie | null;
}

export function toServiceConfig(row: ServiceRow): ServiceConfig {
  return {
    id: row.id,
    historyDepth: row.historyDepth,
    ignoredPaths: row.ignoredPaths,
    ignoredTrie: compileIgnoredPaths(row.ignoredPaths),
  };
}

/**
 * Service settings cached per process so a check costs one statement. A change
 * made on this node applies at once (invalidate); other nodes pick it up within
 * `ttlMs` (default 5 s), documented in the README.
 */
export class ServiceConfigCache {
  private readonly entries = new Map<string, { config: ServiceConfig; loadedAt: number }>();

  constructor(private readonly ttlMs = Number(process.env.WEIR_SERVICE_CACHE_MS ?? 5000)) {}

  async get(db: DbOrTx, ids: Iterable<string>): Promise<Map<string, ServiceConfig>> {
    const now = Date.now();
    const found = new Map<string, ServiceConfig>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const entry = this.entries.get(id);
      if (entry && now - entry.loadedAt < this.ttlMs) found.set(id, entry.config);
      else missing.push(id);
    }
    if (missing.length > 0) {
      for (const row of await findServices(db, missing)) {
        const config = toServiceConfig(row);
        this.entries.set(row.id, { config, loadedAt: now });
        found.set(row.id, config);
      }
    }
    return found;
  }

  async require(db: DbOrTx, id: string): Promise<ServiceConfig> {
    const config = (await this.get(db, [id])).get(id);
    if (!config) throw new NotFoundError(`service "${id}" is not registered`, "serviceId");
    return config;
  }

  /** The cached ignored paths of a service, without a query; undefined when not cached. */
  peekIgnored(id: string): IgnoredPathTrie | null | undefined {
    const entry = this.entries.get(id);
    return entry && Date.now() - entry.loadedAt < this.ttlMs ? entry.config.ignoredTrie : undefined;
  }

  invalidate(id?: string): void {
    if (id === undefined) this.entries.clear();
    else this.entries.delete(id);
  }
}

const CACHE = Symbol.for("weir.serviceConfigCache");
/** One cache per process, shared by the API layer and Next's bundles. */
export const serviceConfigs: ServiceConfigCache = ((globalThis as Record<symbol, ServiceConfigCache>)[CACHE] ??=
  new ServiceConfigCache());
