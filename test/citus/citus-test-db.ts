import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { openTestStore, type TestDatabase } from "../test-store";
import { createMigratedCitusDatabase, dropCitusDatabase } from "./citus-cluster";

export type { TestDatabase };

/**
 * What createTestDatabase gives a test file, on the run's Citus cluster: a new
 * database on every node, migrated (and so distributed) through the coordinator.
 * The Citus suite's config puts this module in place of test/test-db.ts.
 */
export async function createTestDatabase(options: { poolMax?: number } = {}): Promise<TestDatabase> {
  const ports = inject("citusPorts");
  const name = `weir_c_${randomBytes(5).toString("hex")}`;
  const url = await createMigratedCitusDatabase(ports, name);
  return openTestStore(name, url, options.poolMax ?? 20, () => dropCitusDatabase(ports, name));
}
