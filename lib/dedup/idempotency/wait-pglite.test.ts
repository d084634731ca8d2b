import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { begin } from "./begin";
import { beginWaiting } from "./begin-waiting";
import { complete } from "./complete";
import { release } from "./release";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "weir-pglite-wait-"));
let store: Store;

beforeAll(async () => {
  store = await openStore({ ...storeConfigFromEnv(), databaseUrl: undefined, dataDir: path.join(dataDir, "store") });
}, 60_000);
afterAll(async () => {
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ref = (key: string) => ({ scope: "pglite-wait", key, requestHash: "d".repeat(64) });
const response = { status: 200, body: "done", headers: {} };

describe("waiting for a key on the embedded store (PGlite, LISTEN/NOTIFY in process)", () => {
  it("wakes a waiter on complete and on release, without waiting for the timeout", async () => {
    await begin(store.db, ref("a"));
    const started = Date.now();
    const waiter = beginWaiting(store, ref("a"), 10);
    await sleep(200);
    await complete(store.db, { ...ref("a"), attempt: 1, response });
    expect(await waiter).toMatchObject({ outcome: "completed", attempt: 1, response, waited: true });
    expect(Date.now() - started).toBeLessThan(3000);

    await begin(store.db, ref("b"));
    const taker = beginWaiting(store, ref("b"), 10);
    await sleep(200);
    await release(store.db, { ...ref("b"), attempt: 1 });
    expect(await taker).toMatchObject({ outcome: "started", attempt: 2, waited: true });
  });

  it("answers in_progress when the wait ends", async () => {
    await begin(store.db, ref("c"));
    const started = Date.now();
    expect(await beginWaiting(store, ref("c"), 1)).toMatchObject({ outcome: "in_progress", attempt: 1, waited: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});
