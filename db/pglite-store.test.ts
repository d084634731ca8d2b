import { describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { journal } from "@/lib/journal";
import { keyTimeline } from "@/db/queries/journal";
import { createService } from "@/test/factories";
import { openStore, type Store } from "./client";
import { embeddedTestStore } from "@/test/embedded-store";

let store: Store;
const config = embeddedTestStore("pglite", (opened) => (store = opened));

describe("embedded store (PGlite)", () => {
  it("is migrated at start and runs the same check statement", async () => {
    expect(store.kind).toBe("pglite");
    const serviceId = await createService(store.db, { historyDepth: 2 });
    const decide = async (payload: unknown) => (await check(store.db, { serviceId, messageId: "m", payload })).decision;
    const out = [];
    for (const p of [{ a: 1 }, { a: 1 }, { a: 2 }, { a: 1 }]) out.push(await decide(p));
    expect(out).toEqual(["new", "duplicate", "changed", "changed"]);
  });

  it("runs the same claim statement, a duplicate answering the window it matched", async () => {
    const first = await claim(store.db, { consumerGroup: "g-embedded", messageId: "m" });
    const again = await claim(store.db, { consumerGroup: "g-embedded", messageId: "m" });
    expect(first.decision).toBe("new");
    expect(again.decision).toBe("duplicate");
    expect(again.windowStartedAt).toBe(first.windowStartedAt);
    expect(Date.parse(again.windowEndsAt!) - Date.parse(again.windowStartedAt!)).toBe(again.ttlSeconds * 1000);
  });

  it("journals its answers into the same partitioned table, and drops old days", async () => {
    const serviceId = await createService(store.db);
    for (const payload of [1, 1]) await check(store.db, { serviceId, messageId: "j", payload, origin: { caller: "embedded-caller" } });
    await journal.flush(store.db);
    const timeline = await keyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "j", limit: 10 });
    expect(timeline.map((e) => [e.decision, e.caller])).toEqual([
      ["duplicate", "embedded-caller"],
      ["new", "embedded-caller"],
    ]);
    expect(await journal.maintain(store.db, Date.now() + 30 * 86_400_000)).toContain(`journal_p${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`);
  });

  it("refuses a second opener of the same data folder with a clear message", async () => {
    await expect(openStore(config)).rejects.toThrow(/Another weir process is using the embedded store/);
  });
});
