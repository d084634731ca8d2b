import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { QUARTERS, rolledSpans, rollUp, ROLLUPS } from "@/db/queries/console-stats";
import { totalKind } from "@/db/queries/stats-rollup-span";
import { queryRows } from "@/db/queries/console-rows";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadOverview } from "./overview";

let store: TestDatabase;
let busy: string;
let quiet: string;
const NOW = Date.now();
const MINUTE = 60_000;

/** Two services with different traffic and a group, over the last 6 hours, rolled up. */
beforeAll(async () => {
  store = await createTestDatabase();
  busy = await createService(store.db);
  quiet = await createService(store.db);
  const minute = (m: number) => new Date(Math.floor(NOW / MINUTE) * MINUTE - m * MINUTE).toISOString();
  for (const [kind, subject, checks, duplicates] of [
    ["service", busy, 30, 7],
    ["service", quiet, 4, 1],
    ["group", "billing", 9, 2],
  ] as const) {
    await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
      select ${kind}, ${subject}, ${minute(0)}::timestamptz - make_interval(mins => m), ${checks}, ${checks - duplicates}, 0, ${duplicates}, 0, 0
      from generate_series(0, 6 * 60) m`);
  }
  for (const rollup of ROLLUPS) for (let i = 0; i < 3; i++) await rollUp(store.db, rollup, 24);
});

const kindRows = async (table: string, kind: string) =>
  (
    await queryRows<{ subject: string; bucket: string | Date; checks: number; duplicates: number }>(
      store.db,
      sql`select subject, bucket, checks::float8 as checks, duplicates::float8 as duplicates from ${sql.identifier(table)} where subject_kind = ${kind} order by bucket`,
    )
  ).map((row) => ({ ...row, bucket: new Date(row.bucket) }));

describe("each kind's sums over its subjects in the rollups", () => {
  it("holds, per rolled bucket, the sum of that kind's subjects and nothing of another kind", async () => {
    for (const [table, kind] of [["stats_quarter", "service"], ["stats_hour", "service"], ["stats_hour", "group"], ["stats_day", "service"]] as const) {
      const [check] = await queryRows<{ buckets: number; totals: number; wrong: number; other: number }>(store.db, sql`
        select count(distinct s.bucket)::int as buckets, count(t.bucket)::int as totals,
          count(*) filter (where t.checks is distinct from s.checks or t.duplicates is distinct from s.duplicates or t.subject <> '')::int as wrong,
          (select count(*)::int from ${sql.identifier(table)} where subject_kind = ${totalKind(kind)} and subject <> '') as other
        from (select bucket, sum(checks) as checks, sum(duplicates) as duplicates from ${sql.identifier(table)} where subject_kind = ${kind} group by bucket) s
        left join ${sql.identifier(table)} t on t.subject_kind = ${totalKind(kind)} and t.bucket = s.bucket`);
      expect(check, `${table} ${kind}`).toEqual({ buckets: check!.totals, totals: check!.buckets, wrong: 0, other: 0 });
      if (table !== "stats_day") expect(check!.buckets, `${table} ${kind}`).toBeGreaterThan(3);
    }
    const whole = (await kindRows("stats_quarter", totalKind("service"))).slice(1, -1);
    for (const row of whole) expect(row, row.bucket.toISOString()).toMatchObject({ checks: 15 * (30 + 4), duplicates: 15 * (7 + 1) });
  });

  it("is what the chart of every service reads, while the lists still read each subject", async () => {
    const quarters = (await rolledSpans(store.db)).find((r) => r.rollup === QUARTERS)!;
    // The second quarter: the first may hold only some of its minutes.
    const [, row] = await kindRows("stats_quarter", totalKind("service"));
    expect(row!.bucket.getTime()).toBeLessThan(quarters.until.getTime());
    const all = async () => (await loadOverview(store.db, { range: "24h", kind: "service" }, NOW)).series.find((p) => p.t === row!.bucket.getTime())!;
    const before = await all();
    expect(before.checks).toBe(row!.checks);
    // A total that disagrees with its subjects shows in the chart, so the chart reads the totals.
    await store.db.execute(sql`update stats_quarter set checks = checks + 1000 where subject_kind = ${totalKind("service")} and bucket = ${row!.bucket.toISOString()}::timestamptz`);
    try {
      expect((await all()).checks).toBe(row!.checks + 1000);
      const one = await loadOverview(store.db, { range: "24h", kind: "service", subject: busy }, NOW);
      expect(one.series.find((p) => p.t === row!.bucket.getTime())!.checks).toBe(15 * 30);
      const data = await loadOverview(store.db, { range: "24h", kind: "service" }, NOW);
      expect(data.services.map((s) => s.id).sort()).toEqual([busy, quiet].sort());
      expect(data.services.find((s) => s.id === quiet)!.checks).toBe(4 * (6 * 60 + 1));
    } finally {
      await store.db.execute(sql`update stats_quarter set checks = checks - 1000 where subject_kind = ${totalKind("service")} and bucket = ${row!.bucket.toISOString()}::timestamptz`);
    }
  });

  it("are summed for buckets rolled up before them by migration 0022", async () => {
    await store.db.execute(sql`delete from stats_hour where subject_kind like 'all-%'`);
    const statements = readFileSync("db/migrations/0022_stats_kind_totals.sql", "utf8").split("--> statement-breakpoint");
    for (const statement of statements) await store.db.execute(sql.raw(statement));
    const rows = await kindRows("stats_hour", totalKind("service"));
    const [sums] = await queryRows<{ n: number }>(store.db, sql`select count(distinct bucket)::int as n from stats_hour where subject_kind = 'service'`);
    expect(rows).toHaveLength(sums!.n);
    for (const row of rows) expect(row.checks / (30 + 4)).toBe(row.duplicates / (7 + 1));
  });
});
