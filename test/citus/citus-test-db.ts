import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, inject } from "vitest";
import { createPool } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import * as schema from "@/db/schema";
import type { TestDatabase } from "../test-db";

export type { TestDatabase };
import { createMigratedCitusDatabase, dropCitusDatabase } from "./citus-cluster";

/**
 * What createTestDatabase gives a test file, on the run's Citus cluster: a new
 * database on every node, migrated (and so distributed) through the coordinator.
 * The Citus suite's config puts this module in place of test/test-db.ts.
 */
export async function createTestDatabase(options: { poolMax?: number } = {}): Promise<TestDatabase> {
  const ports = inject("citusPorts");
  const name = `weir_c_${randomBytes(5).toString("hex")}`;
  const url = await createMigratedCitusDatabase(ports, name);
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
    await dropCitusDatabase(ports, name);
  });
  return store;
}
