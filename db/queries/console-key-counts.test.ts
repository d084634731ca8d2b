import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { serviceKeyCounts } from "./console-key-counts";

let store: TestDatabase;
const ids: Record<"small" | "large" | "empty", string> = { small: "", large: "", empty: "" };
const CAP = 200;

const addKeys = (serviceId: string, n: number) =>
  store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
    select ${serviceId}, 'k-' || g, '\\x00', 1, now(), now() from generate_series(1, ${n}) g`);

beforeAll(async () => {
  store = await createTestDatabase();
  for (const key of Object.keys(ids) as (keyof typeof ids)[]) ids[key] = await createService(store.db);
  await addKeys(ids.small, 150);
  await addKeys(ids.large, 30_000);
});

const countsOf = async () => new Map((await serviceKeyCounts(store.db, Object.values(ids), CAP)).map((c) => [c.serviceId, c]));

describe("key counts per service", () => {
  it("counts small services exactly and estimates a large one from a sample before any statistics", async () => {
    const counts = await countsOf();
    expect(counts.get(ids.small)).toEqual({ serviceId: ids.small, keys: 150, exact: true });
    expect(counts.get(ids.empty)).toEqual({ serviceId: ids.empty, keys: 0, exact: true });
    const large = counts.get(ids.large)!;
    expect(large.exact).toBe(false);
    expect(large.keys).toBeGreaterThan(24_000);
    expect(large.keys).toBeLessThan(36_000);
  });

  it("estimates from the planner's statistics once analysed, and follows the table's growth", async () => {
    await store.db.execute(sql`analyze last_seen`);
    let large = (await countsOf()).get(ids.large)!;
    expect(large.exact).toBe(false);
    expect(Math.abs(large.keys - 30_000)).toBeLessThan(1_500);
    // Rows added since the last ANALYZE: the estimate scales with the table's pages, as the planner's does.
    await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
      select ${ids.large}, 'more-' || g, '\\x00', 1, now(), now() from generate_series(1, 30000) g`);
    large = (await countsOf()).get(ids.large)!;
    expect(large.keys).toBeGreaterThan(50_000);
    expect((await countsOf()).get(ids.small)).toMatchObject({ keys: 150, exact: true });
  });
});
