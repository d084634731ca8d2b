import pg from "pg";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { localAdmin } from "@/test/pg-admin";

/** The local PostgreSQL the benches create their databases on; never a remote one. */
export const ADMIN_URL = process.env.WEIR_BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export const { databaseUrl, withAdmin } = localAdmin(ADMIN_URL, "benches", "WEIR_BENCH_ADMIN_URL");

export interface BenchDatabase {
  name: string;
  url: string;
  store: Store;
  /** A pool of its own for seeding and measuring, separate from the store's. */
  pool: pg.Pool;
  drop(): Promise<void>;
}

/**
 * Creates `weir_bench_<scenario>` (dropping a leftover one), migrates it with
 * weir's own migrations, and returns it with a drop() for the end of the run.
 */
export async function createBenchDatabase(scenario: string, options: { poolMax?: number } = {}): Promise<BenchDatabase> {
  const name = `weir_bench_${scenario.replace(/[^a-z0-9_]/g, "_")}`;
  await withAdmin(async (admin) => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  });
  const url = databaseUrl(name);
  const store = await openStore({ ...storeConfigFromEnv(), databaseUrl: url, poolMax: options.poolMax ?? 20, statementTimeoutMs: 600_000 });
  const pool = new pg.Pool({ connectionString: url, max: 8, application_name: "weir-bench" });
  pool.on("error", () => undefined); // idle connections are cut when the database is dropped
  let dropped = false;
  return {
    name,
    url,
    store,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await store.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      if (process.env.WEIR_BENCH_KEEP_DB === "1") return void console.log(`  kept database ${name} (WEIR_BENCH_KEEP_DB=1)`);
      await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** Current WAL position in bytes since the start of the cluster's WAL. */
export async function walBytes(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ b: string }>("select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as b");
  return Number(rows[0]!.b);
}

/**
 * Loads a table fast: drops its indexes (and primary key), runs `load`, then
 * rebuilds exactly the definitions it dropped, so the schema stays weir's own.
 */
export async function withIndexesDropped(pool: pg.Pool, table: string, load: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    const constraints = await client.query<{ name: string; def: string }>(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = $1::regclass and contype in ('p', 'u')`,
      [table],
    );
    const names = new Set(constraints.rows.map((c) => c.name));
    const indexes = (
      await client.query<{ name: string; def: string }>(`select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and tablename = $1`, [table])
    ).rows.filter((i) => !names.has(i.name));
    for (const c of constraints.rows) await client.query(`alter table ${table} drop constraint "${c.name}"`);
    for (const i of indexes) await client.query(`drop index "${i.name}"`);
    await load();
    await client.query("set maintenance_work_mem = '512MB'");
    for (const c of constraints.rows) await client.query(`alter table ${table} add constraint "${c.name}" ${c.def}`);
    for (const i of indexes) await client.query(i.def);
    await client.query(`vacuum analyze ${table}`);
  } finally {
    client.release();
  }
}
