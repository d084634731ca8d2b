import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { hourlyRolledUntil, rollUpHours } from "@/db/queries/console-stats";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadOverview } from "./overview";
import { fillSeries, median } from "./series";

let store: TestDatabase;
let serviceId: string;
const NOW = Date.now();
const HOUR = 3_600_000;

/** Three days of minutes: 10 checks (2 duplicates) a minute, and one minute 5 h ago with 500 duplicates. */
beforeAll(async () => {
  store = await createTestDatabase();
  serviceId = await createService(store.db);
  await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
    select 'service', ${serviceId}, date_trunc('minute', ${new Date(NOW).toISOString()}::timestamptz) - make_interval(mins => m),
      10, 5, 3, 2, case when m % 60 = 0 then 1 else 0 end, 0
    from generate_series(0, 3 * 24 * 60) m`);
  await store.db.execute(sql`update stats_minute set checks = checks + 500, duplicates = duplicates + 500
    where subject = ${serviceId} and bucket = date_trunc('minute', ${new Date(NOW - 5 * HOUR).toISOString()}::timestamptz)`);
  await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, duplicates, late_redeliveries)
    values ('group', 'billing', date_trunc('minute', now()), 4, 3, 1, 1)`);
});

describe("overview", () => {
  it("reads the same numbers before and after closed hours move to the hourly rollup", async () => {
    const before = await loadOverview(store.db, { range: "7d", kind: "service" }, NOW);
    expect(await hourlyRolledUntil(store.db)).toBeNull();
    for (let i = 0; i < 5; i++) await rollUpHours(store.db, 24);
    const until = await hourlyRolledUntil(store.db);
    expect(until).not.toBeNull();
    expect(NOW - until!.getTime()).toBeLessThan(2 * HOUR);
    const after = await loadOverview(store.db, { range: "7d", kind: "service" }, NOW);
    expect(after.series).toEqual(before.series);
    expect(after.services).toEqual(before.services);
    const mine = after.services.find((s) => s.id === serviceId)!;
    expect(mine).toMatchObject({ checks: 10 * (3 * 24 * 60 + 1) + 500, duplicates: 2 * (3 * 24 * 60 + 1) + 500, errors: 3 * 24 + 1 });
  });

  it("buckets by the range's step, marks the spike, and lists groups and the top duplicates now", async () => {
    const data = await loadOverview(store.db, { range: "24h", kind: "service", subject: serviceId }, NOW);
    expect(data.stepSeconds).toBe(900);
    expect(data.series).toHaveLength(96);
    expect(data.series.every((p, i) => i === 0 || p.t - data.series[i - 1]!.t === 900_000)).toBe(true);
    const spikes = data.series.filter((p) => p.spike);
    expect(spikes).toHaveLength(1);
    expect(spikes[0]!.duplicates).toBe(15 * 2 + 500);
    expect(data.groups).toEqual([expect.objectContaining({ id: "billing", checks: 4, duplicates: 1, lateRedeliveries: 1 })]);
    expect(data.topNow[0]).toMatchObject({ subject: serviceId });
  });
});

describe("series helpers", () => {
  it("fills empty buckets with zeros and needs more than twice the median (at least 2) for a spike", () => {
    const t0 = Date.parse("2025-01-01T00:00:00Z");
    const rows = [0, 1, 3].map((i) => ({ bucket: new Date(t0 + i * 60_000), checks: 3, new: 0, changed: 0, duplicates: i === 3 ? 3 : 1, errors: 0, lateRedeliveries: 0 }));
    const points = fillSeries(rows, new Date(t0), new Date(t0 + 4 * 60_000), 60);
    expect(points.map((p) => [p.duplicates, p.spike])).toEqual([
      [1, false],
      [1, false],
      [0, false],
      [3, true],
      [0, false],
    ]);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});
