import { beforeAll, describe, expect, it } from "vitest";
import { journal } from "@/lib/journal/index";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createWeirClient, type WeirClient } from "../src/client";
import { WeirApiError } from "../src/errors";
import { createTestToken } from "@/test/token.fixture";

let store: TestDatabase;
let api: TestApi;
let client: WeirClient;
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  client = createWeirClient({ baseUrl: api.url, token: await createTestToken(store.db), minDelayMs: 5, maxDelayMs: 50 });
});

describe("the journal through the typed client", () => {
  it("reads a range page by page, every entry once, filtered; a key's timeline; and the level", async () => {
    const group = uniqueId("grp");
    await client.putConsumerGroup(group, { ttlSeconds: 3600, reason: "client journal test" });
    for (let i = 0; i < 7; i++) await client.claim({ consumerGroup: group, messageId: `P-${i % 3}` });
    await journal.flush(store.db);
    const range = { from: new Date(Date.now() - HOUR_MS), to: new Date(Date.now() + HOUR_MS) };

    const first = await client.journalRange("window", group, { ...range, limit: 5 });
    expect(first.entries).toHaveLength(5);
    expect(first.nextCursor).not.toBeNull();
    expect(first.gaps).toEqual([]);
    const all = [];
    for await (const entry of client.journalEntries("window", group, { ...range, limit: 2 })) all.push(entry);
    expect(all.map((e) => `${e.key} ${e.decision}`)).toEqual(["P-0 new", "P-1 new", "P-2 new", "P-0 duplicate", "P-1 duplicate", "P-2 duplicate", "P-0 duplicate"]);
    const duplicates = await client.journalRange("window", group, { ...range, decision: ["duplicate"], key: "P-0" });
    expect(duplicates.entries.map((e) => e.decision)).toEqual(["duplicate", "duplicate"]);
    expect(duplicates.entries[0]!.caller).toMatch(/^token:/);

    const timeline = await client.journalKey("window", group, "P-0", { limit: 2 });
    expect(timeline.entries.map((e) => e.decision)).toEqual(["duplicate", "duplicate"]);
    const older = await client.journalKey("window", group, "P-0", { limit: 2, before: timeline.nextBefore! });
    expect(older).toMatchObject({ entries: [{ decision: "new" }], nextBefore: null });

    expect((await client.journalLevel("window", group)).level).toBe("all");
    expect(await client.setJournalLevel("window", group, { level: "off", reason: "quiet group" })).toMatchObject({ kind: "group", previous: "all", level: "off", changed: true });
    expect((await client.journalLevel("window", group)).level).toBe("off");
  });

  it("raises a typed error naming the field", async () => {
    const bad = await client.journalRange("window", "g", { from: "2026-01-02", to: "2026-01-01" }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(WeirApiError);
    expect(bad).toMatchObject({ status: 400, field: "to" });
  });
});
