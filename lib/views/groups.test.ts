import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/db/queries/console-rows";
import { rolledSpans, rollUp, ROLLUPS } from "@/db/queries/console-stats";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadGroup, loadGroups } from "./groups";

let store: TestDatabase;
const NOW = Date.now();

/** Two days of minutes for two groups, counters varying minute by minute. */
beforeAll(async () => {
  store = await createTestDatabase();
  await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
    select 'group', g, date_trunc('minute', ${new Date(NOW).toISOString()}::timestamptz) - make_interval(mins => m),
      10 + m % 7, 4 + m % 3, 0, 6 + m % 4 - m % 3, m % 11 / 10, m % 5 / 4
    from generate_series(0, 2 * 24 * 60) m, unnest(array['orders', 'payments']) g`);
});

/** The last 24 h of a group straight from the per-minute rows, as the group pages define the window. */
async function minuteTotals(group: string) {
  const since = new Date(Math.floor((NOW - 86_400_000) / 60_000) * 60_000).toISOString();
  const [row] = await queryRows<Record<string, number>>(store.db, sql`
    select sum(checks)::float8 as checks, sum(new)::float8 as new, sum(changed)::float8 as changed, sum(duplicates)::float8 as duplicates,
      sum(errors)::float8 as errors, sum(late_redeliveries)::float8 as "lateRedeliveries"
    from stats_minute where subject_kind = 'group' and subject = ${group} and bucket >= ${since}::timestamptz`);
  return row!;
}

describe("group pages", () => {
  it("count 24 h of traffic from the rollups, equal to the per-minute rows", async () => {
    const before = await loadGroup(store.db, "orders", { now: NOW });
    for (const rollup of ROLLUPS) for (let i = 0; i < 5; i++) await rollUp(store.db, rollup, 24);
    expect((await rolledSpans(store.db)).map((r) => r.rollup.table)).toEqual(["stats_day", "stats_hour", "stats_quarter"]);
    const one = await loadGroup(store.db, "orders", { now: NOW });
    expect(one!.group).toEqual(before!.group);
    expect(one!.group).toMatchObject(await minuteTotals("orders"));
    const all = await loadGroups(store.db, NOW);
    expect(all.groups.map((g) => g.id)).toEqual(["orders", "payments"]);
    for (const g of all.groups) expect(g).toMatchObject(await minuteTotals(g.id));
    // The 24 h before, which the list compares each rate with, from the rollups too.
    const since = Math.floor((NOW - 86_400_000) / 60_000) * 60_000;
    for (const g of all.groups) {
      const [day] = await queryRows<{ checks: number; duplicates: number }>(store.db, sql`
        select sum(checks)::float8 as checks, sum(duplicates)::float8 as duplicates from stats_minute
        where subject_kind = 'group' and subject = ${g.id}
          and bucket >= ${new Date(since - 86_400_000).toISOString()}::timestamptz and bucket < ${new Date(since).toISOString()}::timestamptz`);
      expect(g.previous).toEqual(day);
    }
  });

  it("still finds a group whose minutes are past their retention, from its hourly stats", async () => {
    expect(await loadGroup(store.db, "retired", { now: NOW })).toBeNull();
    await store.db.execute(sql`insert into stats_hour (subject_kind, subject, bucket, checks, new) values ('group', 'retired', now() - interval '60 days', 3, 3)`);
    expect((await loadGroup(store.db, "retired", { now: NOW }))?.group).toMatchObject({ id: "retired", checks: 0 });
  });
});
