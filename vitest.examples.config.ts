import path from "node:path";
import { defineConfig } from "vitest/config";

/** `npm run test:examples`: the example consumers against real brokers (NATS JetStream). */
export default defineConfig({
  // The client workspace by its package name, from source (its dist is built only to pack it).
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "@weir/client": path.resolve(import.meta.dirname, "packages/client/src/index.ts") } },
  test: {
    include: ["examples/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
