import pg from "pg";
import { databaseUrl, withAdmin } from "./db";

/**
 * The database a bench left with WEIR_BENCH_KEEP_DB=1, opened again as it is (no drop, no
 * seed), so that timing can be repeated after a fix without loading 10 M rows again.
 */
export async function reuseBenchDatabase(scenario: string): Promise<{ name: string; url: string; pool: pg.Pool; drop(): Promise<void> }> {
  const name = `weir_bench_${scenario.replace(/[^a-z0-9_]/g, "_")}`;
  const exists = await withAdmin(async (admin) => (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1);
  if (!exists) throw new Error(`--reuse-database: there is no database ${name}; run once with WEIR_BENCH_KEEP_DB=1 first`);
  const url = databaseUrl(name);
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: "weir-bench" });
  pool.on("error", () => undefined);
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end().catch(() => undefined);
      if (process.env.WEIR_BENCH_KEEP_DB === "1") return void console.log(`  kept database ${name} (WEIR_BENCH_KEEP_DB=1)`);
      await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
