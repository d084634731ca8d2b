import path from "node:path";
import { defineConfig } from "vitest/config";
import { TIMED_FILES, testGroup } from "./test/timed-files";

/**
 * `npm run test:unit` runs this config twice: WEIR_TEST_GROUP=parallel (every file but the timed
 * ones, two at a time) and WEIR_TEST_GROUP=timed (the timed ones, one at a time). Without the
 * variable (`npx vitest run <file>`) every file is included.
 */
const group = testGroup();

export default defineConfig({
  // The client workspace by its package name, from source (its dist is built only to pack it).
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@weir/client": path.resolve(import.meta.dirname, "packages/client/src/index.ts") } },
  test: {
    include: group === "timed" ? [...TIMED_FILES] : ["**/*.test.ts"],
    // The example consumer's JetStream test is its own suite (vitest.examples.config.ts); Citus has one too.
    exclude: ["node_modules/**", ".next/**", "e2e/**", "test/faults/**", "test/citus/**", "examples/**", ...(group === "parallel" ? TIMED_FILES : [])],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files wait on PostgreSQL, so two at a time takes about half as long on two cores as
    // vitest's default there (cores - 1 = one); three were no faster and broke a timed test.
    maxWorkers: group === "timed" ? 1 : 2,
  },
});
