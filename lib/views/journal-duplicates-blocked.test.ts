import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ROLLUPS, rollUp } from "@/db/queries/console-stats";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { blockedReportQuerySchema } from "@/lib/validation/console-journal";
import { blockedReportCsv, loadBlockedReport, periodStart, REPORT_SUBJECTS_SHOWN, shownRows, type BlockedPeriod } from "./journal-duplicates-blocked";

let store: TestDatabase;
const NOW = Date.now();
const MIN = 60_000;
const a = uniqueId("svc-a");
const b = uniqueId("svc-b");

async function minute(subject: string, at: number, checks: number, duplicates: number) {
  await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
    values ('service', ${subject}, date_trunc('minute', ${new Date(at).toISOString()}::timestamptz), ${checks}, ${checks - duplicates}, 0, ${duplicates}, 0, 0)
    on conflict (subject_kind, subject, bucket) do update set checks = stats_minute.checks + excluded.checks, duplicates = stats_minute.duplicates + excluded.duplicates`);
}

beforeAll(async () => {
  store = await createTestDatabase();
  const monday = periodStart("week", NOW, 0).getTime();
  await minute(a, monday, 100, 40); // this week's first minute
  await minute(b, monday, 10, 1);
  await minute(a, monday - MIN, 50, 20); // last week's last minute (Sunday 23:59)
  await minute(a, periodStart("week", NOW, 60).getTime(), 7, 7); // before either report reaches back
});

describe("the duplicates blocked report", () => {
  it("starts weeks on Monday and months on the first, in UTC", () => {
    const wednesday = Date.UTC(2026, 10, 25, 13, 30); // 2026-11-25
    expect(periodStart("week", wednesday, 0).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(periodStart("week", wednesday, 1).toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(periodStart("week", Date.UTC(2026, 10, 29, 23), 0).toISOString()).toBe("2026-11-23T00:00:00.000Z"); // a Sunday
    expect(periodStart("month", wednesday, 11).toISOString()).toBe("2025-12-01T00:00:00.000Z");
  });

  it("sums each service's duplicates per week, newest first, the same from minutes and from the hourly rollup", async () => {
    const read = async () => {
      const report = await loadBlockedReport(store.db, { period: "week", kind: "service" }, NOW);
      return report.periods.map((p) => ({ ...p, rows: p.rows.filter((r) => r.subject === a || r.subject === b) }));
    };
    const before = await read();
    expect(before).toHaveLength(12);
    expect(before[0]).toMatchObject({ partial: true, rows: [{ subject: a, checks: 100, duplicates: 40 }, { subject: b, checks: 10, duplicates: 1 }] });
    expect(before[1]).toMatchObject({ partial: false, rows: [{ subject: a, checks: 50, duplicates: 20 }] });
    expect(before[0]!.label).toBe(`Week of ${periodStart("week", NOW, 0).toISOString().slice(0, 10)}`);
    expect(before.flatMap((p) => p.rows).reduce((sum, r) => sum + r.duplicates, 0)).toBe(61);

    for (const rollup of ROLLUPS) for (let i = 0; i < 30; i++) await rollUp(store.db, rollup, 24 * 7);
    expect(await read()).toEqual(before);
  });

  it("exports one CSV row per period and service", async () => {
    const report = await loadBlockedReport(store.db, { period: "month", kind: "service" }, NOW);
    const lines = blockedReportCsv(report).trimEnd().split("\r\n");
    expect(lines[0]).toBe(`"period_start","period","partial","service","checks","duplicates_blocked","duplicate_share"`);
    const mine = lines.filter((line) => line.includes(a));
    const total = mine.reduce((sum, line) => sum + Number(JSON.parse(`[${line}]`)[5]), 0);
    expect(total).toBe(60);
    expect(lines.find((line) => line.includes(b))).toMatch(/"10","1","0\.1000"$/);
  });

  it("lists a period's ten busiest subjects and sums the rest, unless that period is opened in full", () => {
    const rows = Array.from({ length: 13 }, (_, i) => ({ subject: `svc-${String(i).padStart(2, "0")}`, checks: 100, duplicates: 13 - i }));
    const period: BlockedPeriod = { start: "2026-11-23", label: "Week of 2026-11-23", partial: true, checks: 1300, duplicates: 91, rows };
    const folded = shownRows(period);
    expect(folded.rows.map((r) => r.subject)).toEqual(rows.slice(0, REPORT_SUBJECTS_SHOWN).map((r) => r.subject));
    expect(folded.rest).toEqual({ subjects: 3, checks: 300, duplicates: 3 + 2 + 1 });
    expect(shownRows(period, "2026-11-16").rest).not.toBeNull();
    expect(shownRows(period, "2026-11-23")).toEqual({ rows, rest: null });
    expect(shownRows({ ...period, rows: rows.slice(0, 10) })).toEqual({ rows: rows.slice(0, 10), rest: null });
  });

  it("takes the opened period as a date and names the field when it is not one", () => {
    expect(blockedReportQuerySchema.parse({ start: "2026-11-23" })).toEqual({ period: "week", kind: "service", start: "2026-11-23" });
    const bad = blockedReportQuerySchema.safeParse({ start: "2026-11-31" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["start"], message: "a date, YYYY-MM-DD" });
  });
});
