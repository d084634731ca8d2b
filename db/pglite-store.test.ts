import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { createService } from "@/test/factories";
import { storeConfigFromEnv } from "./config";
import { openStore, type Store } from "./client";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "weir-pglite-"));
const config = { ...storeConfigFromEnv(), databaseUrl: undefined, dataDir: path.join(dataDir, "store") };
let store: Store;

beforeAll(async () => {
  store = await openStore(config);
}, 60_000);
afterAll(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("embedded store (PGlite)", () => {
  it("is migrated at start and runs the same check statement", async () => {
    expect(store.kind).toBe("pglite");
    const serviceId = await createService(store.db, { historyDepth: 2 });
    const decide = async (payload: unknown) => (await check(store.db, { serviceId, messageId: "m", payload })).decision;
    const out = [];
    for (const p of [{ a: 1 }, { a: 1 }, { a: 2 }, { a: 1 }]) out.push(await decide(p));
    expect(out).toEqual(["new", "duplicate", "changed", "changed"]);
  });

  it("refuses a second opener of the same data folder with a clear message", async () => {
    await expect(openStore(config)).rejects.toThrow(/Another weir process is using the embedded store/);
  });
});
