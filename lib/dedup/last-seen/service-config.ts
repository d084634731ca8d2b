import { findServices, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { compilePathFilter, type PathFilter } from "@/lib/dedup/canonical/path-filter";
import { NotFoundError } from "@/lib/errors";
import { setting } from "@/lib/config";

/** What the check path needs to know about a service, compiled once. */
export interface ServiceConfig {
  id: string;
  historyDepth: number;
  ignoredPaths: readonly string[];
  includedPaths: readonly string[];
  /** The version of the ignored and included paths; stored hashes name the one they were made under. */
  hashVersion: number;
  pathFilter: PathFilter | null;
}

export function toServiceConfig(row: ServiceRow): ServiceConfig {
  return {
    id: row.id,
    historyDepth: row.historyDepth,
    ignoredPaths: row.ignoredPaths,
    includedPaths: row.includedPaths,
    hashVersion: row.hashVersion,
    pathFilter: compilePathFilter(row),
  };
}

/**
 * Service settings cached per process so a check costs one statement. A change
 * made on this node applies at once (invalidate); other nodes pick it up within
 * `ttlMs` (default 5 s), documented in the README.
 */
export class ServiceConfigCache {
  private readonly entries = new Map<string, { config: ServiceConfig; loadedAt: number }>();
  /** Loads in flight, so that many requests missing the same service cost one query. */
  private readonly loading = new Map<string, Promise<ServiceConfig | undefined>>();
  /** Bumped by invalidate(): a load that started before it must not cache what it read. */
  private generation = 0;

  constructor(private readonly ttlMs = setting("WEIR_SERVICE_CACHE_MS")) {}

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
      const generation = this.generation;
      for (const row of await findServices(db, missing)) found.set(row.id, this.keep(row, generation));
    }
    return found;
  }

  async require(db: DbOrTx, id: string): Promise<ServiceConfig> {
    const config = this.fresh(db, id) ?? (await this.load(db, id));
    if (!config) throw new NotFoundError(`service "${id}" is not registered`, "serviceId");
    return config;
  }

  /**
   * The cached settings while they are younger than the TTL, without a query or
   * a promise (the hot path). In the last fifth of the TTL one background load
   * renews them, so in steady state no request waits for a refresh.
   */
  fresh(db: DbOrTx, id: string): ServiceConfig | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const age = Date.now() - entry.loadedAt;
    if (age >= this.ttlMs) return undefined;
    if (age >= this.ttlMs * 0.8 && !this.loading.has(id)) {
      this.load(db, id).catch((err: Error) => console.error(`[weir] refreshing service ${id} failed: ${err.message}`));
    }
    return entry.config;
  }

  private load(db: DbOrTx, id: string): Promise<ServiceConfig | undefined> {
    let pending = this.loading.get(id);
    if (!pending) {
      const generation = this.generation;
      pending = findServices(db, [id])
        .then((rows) => rows[0] && this.keep(rows[0], generation))
        .finally(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    return pending;
  }

  /** Caches what a load read, unless settings were invalidated while it ran (it may have read the old ones). */
  private keep(row: ServiceRow, generation: number): ServiceConfig {
    return generation === this.generation ? this.store(row, Date.now()) : toServiceConfig(row);
  }

  /** Keeps the cached object when nothing changed, so a hash taken with its path filter stays reusable. */
  private store(row: ServiceRow, now: number): ServiceConfig {
    const cached = this.entries.get(row.id)?.config;
    const same = cached !== undefined && cached.historyDepth === row.historyDepth && cached.hashVersion === row.hashVersion;
    const config = same ? cached : toServiceConfig(row);
    this.entries.set(row.id, { config, loadedAt: now });
    return config;
  }

  /** The cached path filter of a service, without a query; undefined when not cached. */
  peekFilter(id: string): PathFilter | null | undefined {
    const entry = this.entries.get(id);
    return entry && Date.now() - entry.loadedAt < this.ttlMs ? entry.config.pathFilter : undefined;
  }

  invalidate(id?: string): void {
    this.generation++;
    if (id === undefined) this.entries.clear();
    else this.entries.delete(id);
  }
}

const CACHE = Symbol.for("weir.serviceConfigCache");
/** One cache per process, shared by the API layer and Next's bundles. */
export const serviceConfigs: ServiceConfigCache = ((globalThis as Record<symbol, ServiceConfigCache>)[CACHE] ??=
  new ServiceConfigCache());
