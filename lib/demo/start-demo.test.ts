import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ROLLUPS } from "@/db/queries/console-stats";
import { loadGroups } from "@/lib/views/groups";
import { loadOverview } from "@/lib/views/overview";
import { journal } from "@/lib/journal";
import { stats } from "@/lib/stats/recorder";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { seedExpiredKeys } from "./groups-and-keys";
import { HISTORY_EVENTS } from "./history";
import { seedDemo } from "./start-demo";

let store: TestDatabase;
let api: TestApi;
let seedSeconds = 0;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  const t0 = performance.now();
  await seedDemo(api.url, api.adminToken, store.db);
  seedSeconds = (performance.now() - t0) / 1000;
}, 120_000);

const rows = async <T>(query: ReturnType<typeof sql>) => (await store.db.execute(query)).rows as T[];

describe("demo data", () => {
  it("holds a week of history: a daily rhythm, one trend, spikes, and the replay's reset", async () => {
    await stats.flush(store.db);
    const [span] = await rows<{ days: number; rolled: number }>(sql`
      select extract(epoch from max(bucket) - min(bucket)) / 86400 as days,
        (select count(*)::int from stats_rollup) as rolled
      from stats_minute where subject_kind = 'service'`);
    expect(Number(span!.days)).toBeGreaterThanOrEqual(6);
    // Every rollup (days, hours, quarters) has its mark: the week is summed, not read minute by minute.
    expect(span!.rolled).toBe(ROLLUPS.length);
    // Every day has traffic, and the busiest hour of a day has several times the quietest's.
    const days = await rows<{ day: string; low: number; high: number }>(sql`
      select date_trunc('day', bucket) as day, min(checks)::float8 as low, max(checks)::float8 as high
      from (select date_trunc('hour', bucket) as bucket, sum(checks) as checks from stats_minute
            where subject_kind = 'service' and bucket < now() - interval '2 hours' group by 1) h
      group by 1 order by 1`);
    expect(days.length).toBeGreaterThanOrEqual(7);
    for (const d of days.slice(1, -1)) expect(d.high / Math.max(1, d.low)).toBeGreaterThan(3);
    const week = await loadOverview(store.db, { range: "7d", kind: "service", subject: "orders-projection" });
    expect(week.series.filter((p) => p.checks > 0).length).toBeGreaterThan(6 * 24);
    const trends = week.findings.filter((f) => f.kind === "trend");
    expect(trends).toHaveLength(1);
    const trendDay = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - HISTORY_EVENTS.trend.daysAgo * 86_400_000);
    expect(new Date(trends[0]!.from).toISOString().slice(0, 10)).toBe(trendDay.toISOString().slice(0, 10));
    expect(week.findings.some((f) => f.kind === "spike")).toBe(true);
    const resets = await rows<{ reason: string }>(sql`select reason from reset_batches where subject = 'search-indexer'`);
    expect(resets).toEqual([expect.objectContaining({ reason: expect.stringContaining("replay") })]);
    // The journal dates the history's decisions in the past too.
    await journal.flush(store.db);
    const [oldest] = await rows<{ days: number }>(sql`select extract(epoch from now() - min(at)) / 86400 as days from journal`);
    expect(Number(oldest!.days)).toBeGreaterThan(5);
    expect(seedSeconds).toBeLessThan(60);
  });

  it("gives consumer groups claims, duplicates, late redeliveries and a TTL history", async () => {
    // The server flushes decision stats on a timer; here the test does it.
    await stats.flush(store.db);
    const { groups } = await loadGroups(store.db);
    const group = (id: string) => groups.find((g) => g.id === id)!;
    expect(group("email-sender").lateRedeliveries).toBeGreaterThan(0);
    expect(group("email-sender").ttlSeconds).toBe(3_600);
    expect(group("ledger-consumer").duplicates).toBeGreaterThan(0);
    const history = await rows<{ n: number }>(sql`select count(*)::int as n from ttl_changes where consumer_group = 'email-sender'`);
    expect(history[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it("leaves idempotency keys in every state", async () => {
    const states = async () =>
      (
        await rows<{ state: string }>(sql`
          select distinct case when expires_at <= now() then 'expired' when status = 'completed' then 'completed'
            when locked_until <= now() then 'stuck' else 'in_progress' end as state
          from idempotency_keys`)
      )
        .map((s) => s.state)
        .sort();
    // Short locks and a short retention turn into stuck and expired keys within a few seconds.
    await expect.poll(states, { timeout: 10_000 }).toEqual(["completed", "expired", "in_progress", "stuck"]);
  });

  it("shows a completed bulk reset under Recent resets", async () => {
    const resets = await rows<{ status: string; planned: number; reason: string }>(sql`select status, planned, reason from reset_batches where subject = 'email-sender'`);
    expect(resets).toEqual([expect.objectContaining({ status: "done", planned: 10 })]);
  });

  it("keeps expired keys present after cleanup removes them: the traffic adds more", async () => {
    const expired = async () => (await rows<{ key: string }>(sql`select key from idempotency_keys where expires_at <= now()`)).map((r) => r.key);
    await expect.poll(async () => (await expired()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const before = await expired();
    expect((await api.request("POST", "/api/v1/cleanup", {})).status).toBe(200);
    // Other demo keys may expire meanwhile; those that had expired are gone.
    expect((await expired()).filter((key) => before.includes(key))).toEqual([]);
    const send = async (path: string, body: unknown) => (await api.request("POST", path, body)).body;
    await seedExpiredKeys(send, ["tick-a", "tick-b"]);
    await expect.poll(async () => (await expired()).filter((key) => key.startsWith("hook-tick-")).sort(), { timeout: 10_000 }).toEqual(["hook-tick-a", "hook-tick-b"]);
  });
});
