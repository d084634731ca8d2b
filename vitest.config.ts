import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The client workspace by its package name, from source (its dist is built only to pack it).
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@weir/client": path.resolve(import.meta.dirname, "packages/client/src/index.ts") } },
  test: {
    include: ["**/*.test.ts"],
    // The example consumer's JetStream test is its own suite (vitest.examples.config.ts); Citus has one too.
    exclude: ["node_modules/**", ".next/**", "e2e/**", "test/faults/**", "test/citus/**", "examples/**"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
