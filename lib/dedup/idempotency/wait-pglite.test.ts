import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { embeddedTestStore } from "@/test/embedded-store";
import { begin } from "./begin";
import { beginWaiting } from "./begin-waiting";
import { complete } from "./complete";
import { release } from "./release";

let store: Store;
embeddedTestStore("pglite-wait", (opened) => (store = opened));

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
