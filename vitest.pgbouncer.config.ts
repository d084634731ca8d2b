import path from "node:path";
import { defineConfig } from "vitest/config";

/** `npm run test:pgbouncer`: weir behind a real PgBouncer in transaction mode, on a private cluster. */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/faults/pgbouncer.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
