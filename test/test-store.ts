import { afterAll } from "vitest";
import { drizzle } from "drizzle-orm/node-postgres";
import { createPool, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import * as schema from "@/db/schema";

export interface TestDatabase extends Store {
  name: string;
  url: string;
}

/**
 * A store on a test file's own database, closed and dropped (by `drop`) when the file's tests
 * end. Shared by the plain and the Citus test databases, which differ only in how they make one.
 */
export function openTestStore(name: string, url: string, poolMax: number, drop: () => Promise<unknown>): TestDatabase {
  const pool = createPool({ ...storeConfigFromEnv(), poolMax }, url);
  const store: TestDatabase = {
    name,
    url,
    db: drizzle({ client: pool, schema }),
    kind: "postgres",
    pool,
    ping: async () => void (await pool.query("select 1")),
    close: () => pool.end(),
  };
  afterAll(async () => {
    await pool.end().catch(() => undefined);
    await drop();
  });
  return store;
}
