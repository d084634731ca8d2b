import { beforeAll, describe, expect, it } from "vitest";
import { loadOverview } from "@/lib/console/overview";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { stats } from "./recorder";

// Library mode: the engine called in the service's own process and transaction, no HTTP layer.
// Its decisions reach the console's charts through the same telemetry event as API calls.

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

describe("library-mode decisions in the stats rollup", () => {
  it("counts a check and a claim made in the caller's transaction", async () => {
    const serviceId = await createService(store.db);
    const group = uniqueId("payouts");
    await store.db.transaction(async (tx) => {
      expect((await check(tx, { serviceId, messageId: "A", payload: { v: 1 } })).decision).toBe("new");
      expect((await check(tx, { serviceId, messageId: "A", payload: { v: 1 } })).decision).toBe("duplicate");
      expect((await check(tx, { serviceId, messageId: "A", payload: { v: 2 } })).decision).toBe("changed");
      expect((await claim(tx, { consumerGroup: group, messageId: "P-1" })).decision).toBe("new");
    });
    await stats.flush(store.db);

    const overview = await loadOverview(store.db, { range: "24h", kind: "service", subject: serviceId });
    expect(overview.services.find((s) => s.id === serviceId)).toMatchObject({ checks: 3, new: 1, changed: 1, duplicates: 1, errors: 0 });
    expect(overview.series.reduce((sum, point) => sum + point.duplicates, 0)).toBe(1);
    const groups = await loadOverview(store.db, { range: "24h", kind: "group", subject: group });
    expect(groups.groups.find((g) => g.id === group)).toMatchObject({ checks: 1, new: 1, duplicates: 0 });
  });
});
