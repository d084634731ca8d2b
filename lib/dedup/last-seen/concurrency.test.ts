import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { lastSeen } from "@/db/schema";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { check } from "./check";
import { CheckCoalescer } from "./coalescer";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase({ poolMax: 12 });
});

const tally = (decisions: string[]) =>
  decisions.reduce<Record<string, number>>((acc, d) => ({ ...acc, [d]: (acc[d] ?? 0) + 1 }), {});

describe("concurrent first checks of one key", () => {
  it("50 identical checks over several pool connections: exactly one new", async () => {
    const serviceId = await createService(store.db);
    const payload = { order: 7, status: "paid" };
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => check(store.db, { serviceId, messageId: "hot", payload })),
    );
    expect(tally(outcomes.map((o) => o.decision))).toEqual({ new: 1, duplicate: 49 });
    expect(new Set(outcomes.map((o) => o.version))).toEqual(new Set([1]));
    const rows = await store.db.select().from(lastSeen).where(eq(lastSeen.serviceId, serviceId));
    expect(rows).toHaveLength(1);
  });

  it("two payloads racing: one new, the rest a consistent chain of changes and duplicates", async () => {
    const serviceId = await createService(store.db);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => check(store.db, { serviceId, messageId: "race", payload: { v: i % 2 } })),
    );
    const counts = tally(outcomes.map((o) => o.decision));
    expect(counts.new).toBe(1);
    const [row] = await store.db.select().from(lastSeen).where(eq(lastSeen.serviceId, serviceId));
    // Every new or changed answer wrote exactly one version.
    expect(row!.version).toBe(1 + (counts.changed ?? 0));
  });

  it("coalesced checks decide the same way", async () => {
    const serviceId = await createService(store.db);
    const coalescer = new CheckCoalescer(async () => store.db, { maxInFlight: 4, maxBatch: 16 });
    const { hashForService } = await import("./check");
    const { serviceConfigs } = await import("@/lib/services/service-config");
    const config = await serviceConfigs.require(store.db, serviceId);
    const item = hashForService(config, "hot", '{"a":1}');
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => coalescer.submit(item)));
    expect(tally(outcomes.map((o) => o.decision))).toEqual({ new: 1, duplicate: 49 });
  });
});
