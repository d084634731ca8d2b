import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadGroups } from "@/lib/views/groups";
import { stats } from "@/lib/stats/recorder";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { seedExpiredKeys } from "./groups-and-keys";
import { seedDemo } from "./start-demo";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  await seedDemo(api.url, api.adminToken, store.db);
}, 60_000);

const rows = async <T>(query: ReturnType<typeof sql>) => (await store.db.execute(query)).rows as T[];

describe("demo data", () => {
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
    const resets = await rows<{ status: string; planned: number; reason: string }>(sql`select status, planned, reason from reset_batches`);
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
