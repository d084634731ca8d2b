import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The fault suite (npm run test:faults): private PostgreSQL clusters that the
 * tests stop, crash, freeze and restart, so it stays out of the main suite.
 * Files run one at a time: they measure timeouts and recovery on a 2-core box.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/faults/**/*.test.ts"],
    // Needs a pgbouncer binary, which npm cannot bring: its own suite (vitest.pgbouncer.config.ts).
    exclude: ["test/faults/pgbouncer.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    reporters: ["default"],
  },
});
