import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { listScopeIds } from "@/db/queries/console-idempotency";
import { serviceKeyCounts } from "@/db/queries/console-key-counts";
import { serviceActivity } from "@/db/queries/console-service-list";
import { begin } from "@/lib/dedup/idempotency/begin";
import { claimMany } from "@/lib/dedup/window/claim";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { findAnything } from "@/lib/views/find";
import { loadGroups } from "@/lib/views/groups";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";
import { isRouterPlan, planOf, recordingDb } from "./recording-db";

let store: TestDatabase;
const ACTOR = { id: "citus@weir.test", role: "admin" as const };

beforeAll(async () => {
  store = await createTestDatabase();
  await setGroupTtl(store.db, { consumerGroup: "g-short", ttlSeconds: 60, graceSeconds: 0, reason: "test", actor: ACTOR });
  await claimMany(store.db, [
    { consumerGroup: "g-short", messageId: "m-1" },
    { consumerGroup: "g-short", messageId: "m-2" },
    { consumerGroup: "g-plain", messageId: "m-1" },
  ]);
  // m-1 of g-short was claimed 10 minutes ago: past its window and grace, waiting for cleanup.
  await store.db.execute(sql`update window_records set claimed_at = timestamptz '2000-01-01 00:00:00+00'
    where consumer_group = 'g-short' and message_id = 'm-1'`);
  await begin(store.db, { scope: "s-console", key: "m-1", requestHash: "ab".repeat(32) });
});

describe("console reads on Citus (multi-shard where they must be)", () => {
  it("lists groups with their windows and cleanup lag", async () => {
    const { groups } = await loadGroups(store.db);
    expect(groups.map((g) => [g.id, g.ttlSeconds, g.configured])).toEqual([
      ["g-plain", 86_400, false],
      ["g-short", 60, true],
    ]);
    expect(groups.find((g) => g.id === "g-short")!.cleanupLagSeconds).toBeGreaterThan(60);
    expect(groups.find((g) => g.id === "g-plain")!.cleanupLagSeconds).toBe(0);
  });

  it("counts a small service's keys exactly and estimates a large one from a sample of every shard", async () => {
    await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
      select case when g <= 40 then 'svc-small' else 'svc-large' end, 'k-' || g, '\\x00', 1, now(), now() from generate_series(1, 6040) g`);
    const counts = await serviceKeyCounts(store.db, ["svc-small", "svc-large", "svc-none"], 500);
    expect(counts.slice(0, 1)).toEqual([{ serviceId: "svc-small", keys: 40, exact: true }]);
    expect(counts[1]).toMatchObject({ serviceId: "svc-large", exact: false });
    expect(counts[1]!.keys).toBeGreaterThan(4_500);
    expect(counts[1]!.keys).toBeLessThan(7_500);
    expect(counts[2]).toEqual({ serviceId: "svc-none", keys: 0, exact: true });
  });

  it("gives a service's last minute with traffic, or past the minutes' retention its last hour", async () => {
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 40 * 86_400_000);
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 120_000);
    await store.db.execute(sql`insert into stats_hour (subject_kind, subject, bucket, checks, new) values
      ('service', 'svc-retired', ${hour.toISOString()}::timestamptz, 3, 3), ('service', 'svc-busy', ${hour.toISOString()}::timestamptz, 3, 3)`);
    await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new) values ('service', 'svc-busy', ${minute.toISOString()}::timestamptz, 2, 2)`);
    const rows = await serviceActivity(store.db, ["svc-busy", "svc-retired", "svc-silent"], new Date(Date.now() - 86_400_000), []);
    expect(rows.map((r) => [r.serviceId, r.lastActivity?.toISOString() ?? null])).toEqual([
      ["svc-busy", minute.toISOString()],
      ["svc-retired", hour.toISOString()],
      ["svc-silent", null],
    ]);
  });

  it("lists idempotency scopes that have keys or settings", async () => {
    expect(await listScopeIds(store.db)).toContain("s-console");
  });

  it("finds an exact id everywhere it is stored, in one shard", async () => {
    const { db, sent } = recordingDb(store.pool!);
    const found = await findAnything(db, "m-1");
    expect(found.matches.map((m) => [m.kind, m.owner])).toEqual([
      ["claim", "g-plain"],
      ["claim", "g-short"],
      ["idempotency", "s-console"],
    ]);
    const finds = sent.filter((statement) => statement.text.includes("from idempotency_keys where key"));
    expect(finds).toHaveLength(1);
    const plan = await planOf(store.pool!, finds[0]!);
    expect(isRouterPlan(plan)).toBe(true);
  });
});
