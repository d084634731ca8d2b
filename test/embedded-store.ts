import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv, type StoreConfig } from "@/db/config";

/**
 * An embedded (PGlite) store in a temp folder of the test file's own: opened before its tests
 * (handed to `opened`), closed and removed after. Returns its config, to open it again.
 */
export function embeddedTestStore(label: string, opened: (store: Store) => void): StoreConfig {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `weir-${label}-`));
  const config = { ...storeConfigFromEnv(), databaseUrl: undefined, dataDir: path.join(dataDir, "store") };
  let store: Store | undefined;
  beforeAll(async () => {
    store = await openStore(config);
    opened(store);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return config;
}
