import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadServicePage, type ServiceSort } from "./services";

let store: TestDatabase;
let busy: string;
let quiet: string;
const NOW = Date.now();

const page = (q: string, sort: ServiceSort = "name", pageNumber = 1, perPage = 25) => loadServicePage(store.db, { q, sort, page: pageNumber }, perPage, NOW);
/** One service's row, found by searching for its id (ids are unique, so the search finds it). */
const rowOf = async (id: string) => (await page(id)).shown.find((s) => s.id === id)!;

beforeAll(async () => {
  store = await createTestDatabase();
  busy = await createService(store.db);
  quiet = await createService(store.db);
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
    select ${busy}, 'k-' || g, '\\x00', 1, now(), now() from generate_series(1, 105) g`);
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
    values (${quiet}, 'only', '\\x00', 1, now(), now())`);
  // Two hours ago: 100 checks, 25 duplicates; 30 h ago (outside the day): 1000 checks.
  await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, duplicates) values
    ('service', ${busy}, date_trunc('minute', ${new Date(NOW - 2 * 3_600_000).toISOString()}::timestamptz), 100, 75, 25),
    ('service', ${busy}, date_trunc('minute', ${new Date(NOW - 30 * 3_600_000).toISOString()}::timestamptz), 1000, 1000, 0)`);
});

describe("service list", () => {
  it("counts keys exactly, finds the last activity and the hourly duplicate rate of the day", async () => {
    const b = await rowOf(busy);
    expect(b).toMatchObject({ keys: 105, keysExact: true, checks24h: 100, duplicates24h: 25, previous24h: { checks: 1000, duplicates: 0 } });
    expect(b.duplicateRates).toHaveLength(24);
    expect(b.duplicateRates.filter((r) => r !== null)).toEqual([0.25]);
    expect(Date.parse(b.lastActivity!)).toBeGreaterThan(NOW - 3 * 3_600_000);
    const q = await rowOf(quiet);
    expect(q).toMatchObject({ keys: 1, keysExact: true, checks24h: 0, lastActivity: null });
  });

  it("searches ids and names case-insensitively and sorts", async () => {
    const found = await page(busy.toUpperCase());
    expect(found).toMatchObject({ matched: 1, pages: 1 });
    expect(found.total).toBeGreaterThanOrEqual(2);
    expect(found.shown.map((s) => s.id)).toEqual([busy]);
    expect((await page("", "keys")).shown[0]!.id).toBe(busy);
    expect((await page("", "activity")).shown[0]!.id).toBe(busy);
  });

  it("cuts pages after searching and sorting the whole list, with each page's figures", async () => {
    const byName = [busy, quiet].sort();
    // Names default to ids: in name order the two are byName, one a page, each with its own figures.
    const [first, second] = [await page("", "name", 1, 1), await page("", "name", 2, 1)];
    const all = (await page("", "name", 1, 1000)).shown.map((s) => s.id);
    expect(first.shown.map((s) => s.id)).toEqual([all[0]]);
    expect(second.shown.map((s) => s.id)).toEqual([all[1]]);
    expect(all.filter((id) => byName.includes(id))).toEqual(byName);
    expect((await page("", "name", 1, 1000)).shown.find((s) => s.id === busy)).toMatchObject({ keys: 105, checks24h: 100 });
    // Ordered by a figure, the first page holds the largest over every service, not the first page's.
    const byKeys = await page("", "keys", 1, 1);
    expect(byKeys).toMatchObject({ pageNumber: 1, pages: first.pages });
    expect(byKeys.shown.map((s) => s.id)).toEqual([busy]);
    // A page past the end (the list shrank since the link was made) shows the last one.
    expect((await page("", "name", 10_000, 1)).pageNumber).toBe(first.pages);
  });
});

describe("service list over rolled-up hours", () => {
  it("reads closed hours from the hourly rollup and only the rest from minutes", async () => {
    const hour = Math.floor(NOW / 3_600_000) * 3_600_000;
    const rolledUntil = new Date(hour - 3_600_000).toISOString();
    await store.db.execute(sql`insert into stats_hour (subject_kind, subject, bucket, checks, new, duplicates) values
      ('service', ${quiet}, ${new Date(hour - 5 * 3_600_000).toISOString()}::timestamptz, 40, 30, 10)`);
    // A minute inside the rolled-up span is already counted in stats_hour: it must not count twice.
    await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, duplicates) values
      ('service', ${quiet}, ${new Date(hour - 5 * 3_600_000).toISOString()}::timestamptz, 40, 30, 10),
      ('service', ${quiet}, ${new Date(hour - 60_000).toISOString()}::timestamptz, 8, 8, 0)`);
    await store.db.execute(sql`insert into stats_rollup (name, rolled_until) values ('stats_hour', ${rolledUntil}::timestamptz)
      on conflict (name) do update set rolled_until = excluded.rolled_until`);
    const q = await rowOf(quiet);
    expect(q).toMatchObject({ checks24h: 48, duplicates24h: 10 });
    expect(q.duplicateRates.filter((r) => r !== null)).toEqual([0.25, 0]);
  });
});

describe("service list over rolled-up quarters", () => {
  it("sums the hour past the hourly mark from the quarter rollup and the minutes after it, each once", async () => {
    const fresh = await createService(store.db);
    const hour = Math.floor(NOW / 3_600_000) * 3_600_000;
    const at = (ms: number) => new Date(ms).toISOString();
    // The quarter [hour, hour+15 min) is rolled up; one of its minutes is still in stats_minute and must not count twice.
    await store.db.execute(sql`insert into stats_quarter (subject_kind, subject, bucket, checks, new, duplicates) values
      ('service', ${fresh}, ${at(hour)}::timestamptz, 20, 15, 5)`);
    await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new, duplicates) values
      ('service', ${fresh}, ${at(hour + 60_000)}::timestamptz, 20, 15, 5),
      ('service', ${fresh}, ${at(hour + 16 * 60_000)}::timestamptz, 10, 0, 10)`);
    await store.db.execute(sql`insert into stats_rollup (name, rolled_until) values
      ('stats_hour', ${at(hour)}::timestamptz), ('stats_quarter', ${at(hour + 15 * 60_000)}::timestamptz)
      on conflict (name) do update set rolled_until = excluded.rolled_until`);
    const f = await rowOf(fresh);
    expect(f).toMatchObject({ checks24h: 30, duplicates24h: 15 });
    expect(f.duplicateRates.filter((r) => r !== null)).toEqual([0.5]);
    expect(f.duplicateRates.at(-1)).toBe(0.5);
  });
});

describe("service list past the minutes' retention", () => {
  it("gives the last hour with traffic as the last activity when no minute is left", async () => {
    const retired = await createService(store.db);
    const hour = new Date(Math.floor(NOW / 3_600_000) * 3_600_000 - 40 * 86_400_000);
    await store.db.execute(sql`insert into stats_hour (subject_kind, subject, bucket, checks, new) values ('service', ${retired}, ${hour.toISOString()}::timestamptz, 7, 7)`);
    expect(await rowOf(retired)).toMatchObject({ lastActivity: hour.toISOString(), checks24h: 0 });
  });
});
