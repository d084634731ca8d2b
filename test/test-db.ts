import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { createPool, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "@/db/schema";
import { databaseUrl, withAdmin } from "./pg-admin";

export interface TestDatabase extends Store {
  name: string;
  url: string;
}

/**
 * A fresh, migrated database of this test file's own, cloned from the
 * template; dropped when the file's tests end.
 */
export async function createTestDatabase(options: { poolMax?: number } = {}): Promise<TestDatabase> {
  const name = `${inject("runPrefix")}_${randomBytes(5).toString("hex")}`;
  await withAdmin((admin) => admin.query(`create database "${name}" template "${inject("templateDatabase")}"`));
  const url = databaseUrl(name);
  const pool = createPool({ ...storeConfigFromEnv(), poolMax: options.poolMax ?? 20 }, url);
  const db = drizzle({ client: pool, schema });
  const store: TestDatabase = {
    name,
    url,
    db,
    kind: "postgres",
    pool,
    ping: async () => void (await pool.query("select 1")),
    close: () => pool.end(),
  };
  afterAll(async () => {
    await pool.end().catch(() => undefined);
    await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
  });
  return store;
}
