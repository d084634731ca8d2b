import { beforeAll, describe, expect, it } from "vitest";
import { JournalBuffer } from "@/lib/journal/buffer";
import type { JournalEntry } from "@/lib/journal/entry";
import { JournalWriter } from "@/lib/journal/writer";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { movement } from "./journal-format";
import { loadSources } from "./journal-sources";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const NOW = Date.now();
const MIN = 60_000;

function entries(subject: string, caller: string, decision: string, count: number, minutesAgo: number): JournalEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    atUs: (NOW - minutesAgo * MIN) * 1000 + i,
    mode: "last_seen",
    subject,
    key: `${caller}-${minutesAgo}-${i}`,
    decision,
    version: 1,
    matchedAt: null,
    hashVersion: 1,
    caller,
    requestId: null,
    traceId: null,
  }));
}

describe("sources of duplicates", () => {
  it("ranks callers by duplicates in the period and sets each beside the period of equal length before", async () => {
    const serviceId = await createService(store.db);
    const writer = new JournalWriter(new JournalBuffer(1000), { batchEntries: 500, retentionMs: 7 * 86_400_000 });
    for (const batch of [
      entries(serviceId, "replayer", "duplicate", 30, 10), // new this hour
      entries(serviceId, "orders-api", "duplicate", 12, 20),
      entries(serviceId, "orders-api", "new", 8, 20),
      entries(serviceId, "orders-api", "duplicate", 8, 80), // the hour before
      entries(serviceId, "legacy-batch", "duplicate", 5, 90), // stopped sending
      entries(serviceId, "quiet", "new", 4, 15), // no duplicates at all
    ]) {
      for (const entry of batch) writer.buffer.push(entry);
    }
    await writer.flush(store.db);

    const view = await loadSources(store.db, { period: "1h", kind: "service", subject: serviceId }, NOW);
    expect(view.rows.map((r) => [r.caller?.id, r.duplicates, r.previousDuplicates, movement(r.duplicates, r.previousDuplicates)])).toEqual([
      ["replayer", 30, 0, "new"],
      ["orders-api", 12, 8, "+50 %"],
      ["legacy-batch", 0, 5, "gone"],
    ]);
    expect(view.rows[1]).toMatchObject({ count: 20, previousCount: 8 });
    expect(Date.parse(view.to) - Date.parse(view.from)).toBe(3_600_000);
    expect(Date.parse(view.from) - Date.parse(view.previousFrom)).toBe(3_600_000);
    expect(view.previousBeyondRetention).toBe(false);

    const everyService = await loadSources(store.db, { period: "1h", kind: "service" }, NOW);
    expect(everyService.rows.map((r) => r.caller?.id)).toEqual(expect.arrayContaining(["replayer", "orders-api"]));
    const groups = await loadSources(store.db, { period: "1h", kind: "group", subject: serviceId }, NOW);
    expect(groups.rows).toEqual([]);
  });

  it("says how a count moved in words a team lead reads", () => {
    expect(movement(10, 40)).toBe("−75 %");
    expect(movement(5, 5)).toBe("=");
    expect(movement(0, 0)).toBe("=");
  });
});
