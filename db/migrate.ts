import path from "node:path";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";
import { distributeForCitus, hasCitus } from "./citus";
import type { DbOrTx } from "./types";
import { setting } from "@/lib/config";

export const migrationsFolder = path.resolve(
  /*turbopackIgnore: true*/ setting("WEIR_MIGRATIONS_DIR") ?? path.join(process.cwd(), "db/migrations"),
);

// Several nodes may start at once: one migrates while the others wait on this lock. On Citus
// the lock lives on the coordinator, which every weir node talks to (README "Scaling").
const MIGRATION_LOCK = 7_347_001;

export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder });
    if (await hasCitus(client)) await distributeForCitus(client);
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

export async function migratePgliteStore(db: DbOrTx): Promise<void> {
  await migratePglite(db as unknown as PgliteDatabase<Record<string, never>>, { migrationsFolder });
}
