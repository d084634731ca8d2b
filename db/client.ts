import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { storeConfigFromEnv, type StoreConfig } from "./config";
import { migratePgliteStore, migratePostgres } from "./migrate";
import { lockDataDir } from "./pglite-lock";
import { PLACEMENT_REFRESH_MS, PlacementCache } from "./citus-placement";
import { coordinatorClient, roundRobinClient, watchedClient } from "./route-pool";
import * as schema from "./schema";
import { warnOnServerTimeouts } from "./server-timeouts";
import { attachRouter, nodeAddress, ShardRouter, warnUnlistedWorkers } from "./shard-router";
import type { DbOrTx, StoreKind } from "./types";
import { setting } from "@/lib/config";

export type { DbOrTx, StoreKind } from "./types";

/** The one way to reach the database: a drizzle handle plus what operators need around it. */
export interface Store {
  db: DbOrTx;
  kind: StoreKind;
  /** Present for PostgreSQL: pool usage feeds metrics and back-pressure. */
  pool?: pg.Pool;
  /**
   * Where the hot path goes (checks, claims, idempotency, reverts, token lookups, the stats flush,
   * journal appends): the Citus workers when WEIR_CITUS_ROUTE_URLS is set, else `db`. Read it
   * through hotDb(store).
   */
  hot?: DbOrTx;
  /** The pool behind `hot` when it is not `pool`; its addresses carry the LISTEN of waiting begins. */
  hotPool?: pg.Pool;
  /** With `hot` on the workers, `ping` asks a worker; this asks the coordinator (health reports it). */
  pingCoordinator?: () => Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// int8 columns (versions, counters) stay below 2^53; numbers are what callers expect.
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** The hot path's handle of a store (see Store.hot). */
export const hotDb = (store: Store): DbOrTx => store.hot ?? store.db;

/**
 * No parallel plans. weir's statements read at most a few thousand rows, through an index, and
 * starting parallel workers cost more than they shared out: the journal's range reads, which the
 * planner costs high, waited 5-10 ms for their workers. At 10 M keys, two servers alternated on one
 * database: Sources of every service 64 -> 41 ms median, the incident view of every subject 79 -> 60,
 * the other pages unchanged. The operator's own PGOPTIONS come after, so they can say otherwise.
 */
const SESSION_OPTIONS = ["-c max_parallel_workers_per_gather=0", process.env.PGOPTIONS].filter(Boolean).join(" ");

export function createPool(config: StoreConfig, url: string, Client?: typeof pg.Client): pg.Pool {
  // Sent as startup parameters, which PgBouncer refuses; behind it the role carries them (README "PgBouncer").
  const timeouts = config.sendTimeouts
    ? { statement_timeout: config.statementTimeoutMs, idle_in_transaction_session_timeout: 10_000, options: SESSION_OPTIONS }
    : {};
  const pool = new pg.Pool({
    connectionString: url,
    max: config.poolMax,
    connectionTimeoutMillis: config.connectTimeoutMs,
    query_timeout: config.statementTimeoutMs + 1000,
    ...timeouts,
    application_name: "weir",
    keepAlive: true,
    types: pgTypes,
    ...(Client ? { Client } : {}),
  });
  if (!config.sendTimeouts) warnOnServerTimeouts(pool, config.statementTimeoutMs);
  // An idle connection dropped by the server must not take the process down.
  pool.on("error", (err) => console.error(`[weir] idle database connection failed: ${err.message}`));
  // Nor one that is checked out (a transaction between two statements, or the moment after a
  // statement failed): pg emits 'error' on it with no pool listener attached. Its pending and
  // later queries fail on their own (503), and the pool drops it when it is released.
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}

async function openPostgres(config: StoreConfig, url: string): Promise<Store> {
  const routed = config.routeUrls.length > 0;
  const pool = createPool(config, url, routed ? coordinatorClient() : undefined);
  const db = drizzleNodePg({ client: pool, schema });
  const store: Store = {
    db,
    kind: "postgres",
    pool,
    ping: async () => void (await pool.query("select 1")),
    close: () => pool.end(),
  };
  if (!routed) return store;
  // Citus: the hot path on the workers, the console and migrations on the coordinator (docs/citus.md).
  const hotPool = createPool(config, config.routeUrls[0]!, roundRobinClient(config.routeUrls));
  const hot = drizzleNodePg({ client: hotPool, schema });
  // Keys go to their shard's worker (db/shard-router.ts); placements read from the workers themselves.
  const listed = new Set(config.routeUrls.map(nodeAddress));
  const placements = new PlacementCache(hotPool, PLACEMENT_REFRESH_MS, warnUnlistedWorkers(listed));
  const refresh = () => void placements.refresh();
  const nodePools = config.routeUrls.map((nodeUrl) => {
    const nodePool = createPool(config, nodeUrl, watchedClient(refresh));
    nodePool.on("error", refresh);
    return [nodeAddress(nodeUrl), nodePool] as const;
  });
  attachRouter(hot, new ShardRouter(placements, new Map(nodePools.map(([node, p]) => [node, drizzleNodePg({ client: p, schema })])), hot));
  placements.start();
  return {
    ...store,
    hot,
    hotPool,
    // A node is up while it can decide: load balancers keep it while only the coordinator is down.
    ping: async () => void (await hotPool.query("select 1")),
    pingCoordinator: store.ping,
    close: async () => {
      placements.stop();
      await Promise.all([pool.end(), hotPool.end(), ...nodePools.map(([, p]) => p.end())]);
    },
  };
}

async function openPglite(config: StoreConfig): Promise<Store> {
  const unlock = await lockDataDir(config.dataDir);
  try {
    const client = await PGlite.create(config.dataDir);
    const db = drizzlePglite({ client, schema });
    return {
      db,
      kind: "pglite",
      ping: async () => void (await client.query("select 1")),
      close: async () => {
        await client.close();
        await unlock();
      },
    };
  } catch (err) {
    await unlock();
    throw err;
  }
}

export async function openStore(config: StoreConfig, options: { migrate?: boolean } = {}): Promise<Store> {
  const store = config.databaseUrl ? await openPostgres(config, config.databaseUrl) : await openPglite(config);
  if (options.migrate ?? true) {
    try {
      if (store.pool) await migratePostgres(store.pool);
      else await migratePgliteStore(store.db);
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  return store;
}

// The HTTP layer and Next's server bundles load this module separately; the
// handle lives on globalThis so both share one pool (and one PGlite).
const HANDLE = Symbol.for("weir.store");
type Holder = { promise?: Promise<Store> };
const holder = ((globalThis as Record<symbol, Holder>)[HANDLE] ??= {});

export function getStore(): Promise<Store> {
  // A production role without DDL rights (db/roles/production-grants.sql) runs with WEIR_SKIP_MIGRATIONS=1.
  holder.promise ??= openStore(storeConfigFromEnv(), { migrate: !setting("WEIR_SKIP_MIGRATIONS") }).catch((err) => {
    holder.promise = undefined;
    throw err;
  });
  return holder.promise;
}

export async function getDb(): Promise<DbOrTx> {
  return (await getStore()).db;
}

/** The hot path's handle of the global store (Store.hot). */
export async function getHotDb(): Promise<DbOrTx> {
  return hotDb(await getStore());
}

export async function closeStore(): Promise<void> {
  const pending = holder.promise;
  holder.promise = undefined;
  if (pending) await (await pending).close();
}
