import path from "node:path";
import { defineConfig } from "vitest/config";

/** `npm run test:examples`: the example consumers against real brokers (NATS JetStream). */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["examples/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
