import { beforeAll, describe, expect, it } from "vitest";
import { loadOverview } from "@/lib/views/overview";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { createTestToken } from "@/test/token.fixture";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { stats } from "./recorder";

// Library mode: the engine called in the service's own process and transaction, no HTTP layer.
// Its decisions reach the console's charts through the same telemetry event as API calls.

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
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

  it("counts API checks once each, single and batch alike", async () => {
    const serviceId = await createService(store.db);
    const auth = { authorization: `Bearer ${await createTestToken(store.db, { role: "admin" })}` };
    const single = (payload: unknown) => api.request("POST", "/api/v1/check", { serviceId, messageId: "A", payload }, auth);
    expect((await single(1)).body.decision).toBe("new");
    expect((await single(1)).body.decision).toBe("duplicate");
    const items = [1, 1, 2].map((payload) => ({ serviceId, messageId: "B", payload }));
    expect((await api.request("POST", "/api/v1/check/batch", { items }, auth)).status).toBe(200);
    await stats.flush(store.db);
    const overview = await loadOverview(store.db, { range: "24h", kind: "service", subject: serviceId });
    expect(overview.services.find((s) => s.id === serviceId)).toMatchObject({ checks: 5, new: 2, changed: 1, duplicates: 2 });
  });
});
