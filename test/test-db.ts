import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { databaseUrl, withAdmin } from "./pg-admin";
import { openTestStore, type TestDatabase } from "./test-store";

export type { TestDatabase };

/**
 * A fresh, migrated database of this test file's own, cloned from the
 * template; dropped when the file's tests end.
 */
export async function createTestDatabase(options: { poolMax?: number } = {}): Promise<TestDatabase> {
  const name = `${inject("runPrefix")}_${randomBytes(5).toString("hex")}`;
  await withAdmin((admin) => admin.query(`create database "${name}" template "${inject("templateDatabase")}"`));
  return openTestStore(name, databaseUrl(name), options.poolMax ?? 20, () =>
    withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`)),
  );
}
