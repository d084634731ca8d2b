import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { HOURS, QUARTERS, rolledSpans, rollUp, ROLLUPS } from "@/db/queries/console-stats";
import { queryRows } from "@/db/queries/console-rows";
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

/** Where the hourly rollup has come to (null: it never ran). */
const hourlyMark = async () => (await rolledSpans(store.db)).find((r) => r.rollup === HOURS)?.until ?? null;

describe("overview", () => {
  it("reads the same numbers before and after closed buckets move to the daily, hourly and 15-minute rollups", async () => {
    const ranges = ["1h", "24h", "7d", "30d"] as const;
    // 24 h starts on a quarter hour: its totals read minutes up to the first whole hour, then hours.
    // One range at a time, as a page loads them: four at once queue 36 statements for 20 connections,
    // and on a loaded Citus cluster the last of them outwait the pool's 2 s.
    const loadAll = async () => {
      const loaded = [];
      for (const range of ranges) loaded.push(await loadOverview(store.db, { range, kind: "service" }, NOW));
      return loaded;
    };
    const before = await loadAll();
    expect(await hourlyMark()).toBeNull();
    for (const rollup of ROLLUPS) for (let i = 0; i < 5; i++) await rollUp(store.db, rollup, 24);
    const until = await hourlyMark();
    expect(until).not.toBeNull();
    expect(NOW - until!.getTime()).toBeLessThan(2 * HOUR);
    const after = await loadAll();
    for (const [i, range] of ranges.entries()) {
      expect(after[i]!.series, range).toEqual(before[i]!.series);
      expect(after[i]!.services, range).toEqual(before[i]!.services);
    }
    const mine = after[2]!.services.find((s) => s.id === serviceId)!;
    expect(mine).toMatchObject({ checks: 10 * (3 * 24 * 60 + 1) + 500, duplicates: 2 * (3 * 24 * 60 + 1) + 500, errors: 3 * 24 + 1 });
  });

  it("draws the 24 h chart from 15-minute sums equal to the per-minute rows", async () => {
    for (const rollup of ROLLUPS) for (let i = 0; i < 5; i++) await rollUp(store.db, rollup, 24);
    const quarters = (await rolledSpans(store.db)).find((r) => r.rollup === QUARTERS);
    // Quarters close 10 minutes after they end: at most 25 minutes of the chart still read minutes.
    expect(NOW - quarters!.until.getTime()).toBeLessThanOrEqual(25 * 60_000);
    const [rolledRows] = await queryRows<{ n: number }>(store.db, sql`select count(*)::int as n from stats_quarter`);
    expect(rolledRows!.n).toBeGreaterThan(24 * 4);
    for (const subject of [serviceId, undefined]) {
      const data = await loadOverview(store.db, { range: "24h", kind: "service", subject }, NOW);
      const since = new Date(data.series[0]!.t).toISOString();
      const sums = await queryRows<Record<string, number>>(store.db, sql`
        select (extract(epoch from date_bin('15 minutes', bucket, timestamptz '2000-01-01 00:00:00+00')) * 1000)::float8 as t,
          sum(checks)::float8 as checks, sum(new)::float8 as new, sum(changed)::float8 as changed,
          sum(duplicates)::float8 as duplicates, sum(errors)::float8 as errors, sum(late_redeliveries)::float8 as "lateRedeliveries"
        from stats_minute where subject_kind = 'service' and bucket >= ${since}::timestamptz
          and (${subject ?? null}::text is null or subject = ${subject ?? null}::text)
        group by 1 order by 1`);
      const byT = new Map(sums.map((row) => [Number(row.t), row]));
      expect(data.series).toHaveLength(96);
      for (const point of data.series) {
        const { t: _t, ...minutes } = byT.get(point.t) ?? { t: point.t, checks: 0, new: 0, changed: 0, duplicates: 0, errors: 0, lateRedeliveries: 0 };
        const { t: _pt, spike: _spike, trend: _trend, rate: _rate, previousRate: _previousRate, previousChecks: _previousChecks, ...chart } = point;
        expect(chart, new Date(point.t).toISOString()).toEqual(minutes);
      }
      expect(data.series.reduce((sum, p) => sum + p.checks, 0)).toBeGreaterThan(0);
    }
  });

  it("buckets by the range's step, marks the spike, and lists groups and the top duplicates now", async () => {
    const data = await loadOverview(store.db, { range: "24h", kind: "service", subject: serviceId }, NOW);
    expect(data.stepSeconds).toBe(900);
    expect(data.series).toHaveLength(96);
    expect(data.series.every((p, i) => i === 0 || p.t - data.series[i - 1]!.t === 900_000)).toBe(true);
    const spikes = data.series.filter((p) => p.spike);
    expect(spikes).toHaveLength(1);
    expect(spikes[0]!.duplicates).toBe(15 * 2 + 500);
    expect(data.findings).toEqual([expect.objectContaining({ kind: "spike", peak: spikes[0]!.t, peakDuplicates: 530 })]);
    // The previous 24 h (the same steady traffic) is drawn beside each bucket: 20 % duplicates.
    expect(data.series[10]).toMatchObject({ previousChecks: 150, previousRate: 0.2 });
    const mine = data.services.find((s) => s.id === serviceId)!;
    expect(mine.previous).toEqual({ checks: 10 * 24 * 60, duplicates: 2 * 24 * 60 });
    expect(data.groups).toEqual([expect.objectContaining({ id: "billing", checks: 4, duplicates: 1, lateRedeliveries: 1 })]);
    expect(data.topNow[0]).toMatchObject({ subject: serviceId });
  });

  it("lists a registered service quiet in this range with its previous period, and leaves out unknown subjects seen only before it", async () => {
    const quiet = await createService(store.db);
    // An hour well inside the previous 24 h, long rolled up by the tests above: the same counts in every table,
    // its day's too (from 23:45 to midnight UTC the previous 24 h are one whole day, read from stats_day).
    const hour = Math.floor((NOW - 30 * HOUR) / HOUR) * HOUR;
    const day = Math.floor(hour / (24 * HOUR)) * 24 * HOUR;
    for (const [table, at] of [["stats_minute", hour], ["stats_quarter", hour], ["stats_hour", hour], ["stats_day", day]] as const) {
      const bucket = new Date(at).toISOString();
      await store.db.execute(sql`insert into ${sql.identifier(table)} (subject_kind, subject, bucket, checks, new, duplicates)
        values ('service', ${quiet}, ${bucket}::timestamptz, 7, 4, 3), ('service', 'gone-svc', ${bucket}::timestamptz, 9, 9, 0)`);
    }
    const data = await loadOverview(store.db, { range: "24h", kind: "service" }, NOW);
    expect(data.services.find((s) => s.id === quiet)).toMatchObject({ checks: 0, duplicates: 0, previous: { checks: 7, duplicates: 3 } });
    expect(data.services.map((s) => s.id)).not.toContain("gone-svc");
  });
});

describe("series helpers", () => {
  it("fills empty buckets with zeros and judges spikes against the busy buckets only", () => {
    const t0 = Date.parse("2025-01-01T00:00:00Z");
    const row = (i: number, duplicates: number) => ({ bucket: new Date(t0 + i * 60_000), checks: duplicates + 3, new: 3, changed: 0, duplicates, errors: 0, lateRedeliveries: 0 });
    const points = fillSeries([row(0, 1), row(1, 1), row(3, 30), row(4, 5)], new Date(t0), new Date(t0 + 5 * 60_000), 60);
    expect(points.map((p) => [p.duplicates, p.spike])).toEqual([
      [1, false],
      [1, false],
      [0, false],
      [30, true],
      [5, false],
      [0, false],
    ]);
    // Steady traffic with mostly empty buckets around it is not a spike, however quiet the rest of the range.
    const steady = [...Array.from({ length: 12 }, (_, i) => row(i, 118 + (i % 5))), row(30, 0)];
    expect(fillSeries(steady, new Date(t0), new Date(t0 + 60 * 60_000), 60).filter((p) => p.spike)).toEqual([]);
    const burst = [...steady, row(40, 2_000)];
    expect(fillSeries(burst, new Date(t0), new Date(t0 + 60 * 60_000), 60).filter((p) => p.spike).map((p) => p.duplicates)).toEqual([2_000]);
    // Twenty steady minutes seen in 15-minute buckets: one full bucket between two thin ones, whatever the minute.
    const noisy = (m: number) => 115 + ((m * 7) % 11);
    for (let offset = 0; offset < 15; offset++) {
      const minutes = Array.from({ length: 20 }, (_, m) => ({ ...row(0, noisy(m)), bucket: new Date(t0 + (60 + offset - m) * 60_000) }));
      const quarters = new Map<number, ReturnType<typeof row>>();
      for (const r of minutes) {
        const t = Math.floor(r.bucket.getTime() / 900_000) * 900_000;
        const sum = quarters.get(t);
        quarters.set(t, sum ? { ...sum, checks: sum.checks + r.checks, duplicates: sum.duplicates + r.duplicates } : { ...r, bucket: new Date(t) });
      }
      const series = fillSeries([...quarters.values()], new Date(t0), new Date(t0 + 2 * 60 * 60_000), 900);
      expect(series.filter((p) => p.spike), `now at minute ${offset} of its bucket`).toEqual([]);
    }
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});
