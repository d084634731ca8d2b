import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { begin } from "@/lib/dedup/idempotency/begin";
import { complete } from "@/lib/dedup/idempotency/complete";
import { check } from "@/lib/dedup/last-seen/check";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { metrics } from "@/lib/metrics/registry";
import { observeRetentionPass } from "@/lib/metrics/retention";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { runRetention } from "./retention";
import { setRetention } from "./set-retention";

const operator = { id: "ops@example.com", role: "operator" as const };
const requestHash = "cd".repeat(32);
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const count = async (query: ReturnType<typeof sql>, db = store.db) => Number(((await db.execute(query)).rows[0] as { n: number }).n);

describe("retention", () => {
  it("removes payload versions and stored responses past their subject's age limit, in bounded batches, and nothing else", async () => {
    const kept = await createService(store.db, { historyDepth: 5 });
    const limited = await createService(store.db, { historyDepth: 5 });
    for (const serviceId of [kept, limited]) {
      for (const v of [1, 2, 3]) await check(store.db, { serviceId, messageId: "k-1", payload: { v } });
      for (const v of [1, 2]) await check(store.db, { serviceId, messageId: "k-2", payload: { v } });
    }
    // Versions 1 of both keys are two days old, the rest recent.
    await store.db.execute(sql`update payload_versions set recorded_at = now() - interval '2 days' where version = 1 and service_id in (${kept}, ${limited})`);
    const scope = uniqueId("scope");
    for (const key of ["old", "new", "running"]) await begin(store.db, { scope, key, requestHash });
    for (const key of ["old", "new"]) await complete(store.db, { scope, key, requestHash, attempt: 1, response: { status: 200, body: "ok", headers: {} } });
    await store.db.execute(sql`update idempotency_keys set completed_at = now() - interval '3 hours' where scope = ${scope} and key = 'old'`);

    const changed = await setRetention({ db: store.db, actor: operator, input: { kind: "service", subject: limited, maxAgeSeconds: 86_400, reason: "GDPR: keep payloads a day" } });
    expect(changed).toEqual({ kind: "service", subject: limited, before: null, maxAgeSeconds: 86_400 });
    await setRetention({ db: store.db, actor: operator, input: { kind: "scope", subject: scope, maxAgeSeconds: 3_600, reason: "responses an hour" } });
    expect(await count(sql`select count(*)::int as n from audit_log where target = ${`service:${limited}`} and action = 'service.payload_retention'`)).toBe(1);

    const partial = await runRetention(store.db, { batchSize: 1, maxBatches: 1 });
    expect(partial).toMatchObject({ batches: 1, complete: false });
    const pass = await runRetention(store.db, { batchSize: 1 });
    expect(pass.complete).toBe(true);
    expect(partial.payloadVersionsRemoved + pass.payloadVersionsRemoved).toBe(2);
    expect(partial.responsesRemoved + pass.responsesRemoved).toBe(1);
    expect(await count(sql`select count(*)::int as n from payload_versions where service_id = ${limited}`)).toBe(3);
    expect(await count(sql`select count(*)::int as n from payload_versions where service_id = ${limited} and version = 1`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from payload_versions where service_id = ${kept}`)).toBe(5);
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${limited}`)).toBe(2);
    const keys = (await store.db.execute(sql`select key from idempotency_keys where scope = ${scope} order by key`)).rows.map((r: Record<string, unknown>) => String(r.key));
    expect(keys).toEqual(["new", "running"]);
    expect((await runRetention(store.db)).payloadVersionsRemoved).toBe(0);

    const before = (await metrics.retentionRemoved.get()).values.find((v) => v.labels.kind === "payload_version")?.value ?? 0;
    observeRetentionPass(pass);
    const after = (await metrics.retentionRemoved.get()).values.find((v) => v.labels.kind === "payload_version")!.value;
    expect(after - before).toBe(pass.payloadVersionsRemoved);
  });

  it("is set by an operator of the subject, for a service that exists", async () => {
    const serviceId = await createService(store.db);
    const input = { kind: "service" as const, subject: serviceId, maxAgeSeconds: 3_600, reason: "why" };
    await expect(setRetention({ db: store.db, actor: { id: "v", role: "viewer" }, input })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setRetention({ db: store.db, actor: operator, input: { ...input, subject: "no-such-service" } })).rejects.toBeInstanceOf(NotFoundError);
    await expect(setRetention({ db: store.db, actor: operator, input: { ...input, maxAgeSeconds: 5 } })).rejects.toThrow(/at least 60/);
    await setRetention({ db: store.db, actor: operator, input });
    expect(await setRetention({ db: store.db, actor: operator, input: { ...input, maxAgeSeconds: null } })).toMatchObject({ before: 3_600, maxAgeSeconds: null });
  });
});

describe("retention of the per-minute stats", () => {
  let own: TestDatabase;
  beforeAll(async () => {
    own = await createTestDatabase();
  });

  const day = 86_400_000;
  const minutesOf = async (subject: string) =>
    (await own.db.execute(sql`select extract(epoch from now() - bucket)::int / 86400 as age from stats_minute where subject = ${subject} order by bucket`)).rows.map(
      (r: Record<string, unknown>) => Number(r.age),
    );
  const addMinutes = async (subject: string, kind: string, ...daysAgo: number[]) => {
    for (const d of daysAgo) {
      await own.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, new)
        values (${kind}, ${subject}, date_trunc('minute', now() - make_interval(hours => ${Math.round(d * 24)})), 5, 5)`);
    }
  };
  const markRollups = async (dayMark: string) =>
    own.db.execute(sql`insert into stats_rollup (name, rolled_until) values
      ('stats_quarter', date_trunc('hour', now())), ('stats_hour', date_trunc('hour', now())), ('stats_day', ${sql.raw(dayMark)})
      on conflict (name) do update set rolled_until = excluded.rolled_until`);

  it("removes whole days of minutes past the limit, in batches, and keeps the rollups and the recent minutes", async () => {
    const service = uniqueId("svc");
    const group = uniqueId("grp");
    await addMinutes(service, "service", 40, 3.5, 1 / 24);
    await addMinutes(group, "group", 40, 1 / 24);
    await own.db.execute(sql`insert into stats_hour (subject_kind, subject, bucket, checks, new) values ('service', ${service}, now() - interval '40 days', 5, 5)`);

    // No rollup has run: nothing is summed anywhere yet, so nothing goes.
    expect((await runRetention(own.db, { statsMinuteRetentionMs: 2 * day })).statsMinutesRemoved).toBe(0);
    await markRollups("date_trunc('day', now(), 'UTC')");
    const pass = await runRetention(own.db, { statsMinuteRetentionMs: 2 * day, batchSize: 1 });
    expect(pass).toMatchObject({ statsMinutesRemoved: 3, complete: true });
    expect(pass.batches).toBeGreaterThanOrEqual(4);
    expect(await minutesOf(service)).toEqual([0]);
    expect(await minutesOf(group)).toEqual([0]);
    expect(await count(sql`select count(*)::int as n from stats_hour where subject = ${service}`, own.db)).toBe(1);
    // The cutoff moves once a day: until then a pass only reads it.
    expect(await runRetention(own.db, { statsMinuteRetentionMs: 2 * day })).toMatchObject({ statsMinutesRemoved: 0, batches: 0 });

    const before = (await metrics.retentionRemoved.get()).values.find((v) => v.labels.kind === "stats_minute")?.value ?? 0;
    observeRetentionPass(pass);
    expect((await metrics.retentionRemoved.get()).values.find((v) => v.labels.kind === "stats_minute")!.value - before).toBe(3);
  });

  it("keeps every minute a rollup may still sum again, and 35 days by default", async () => {
    const service = uniqueId("svc");
    await addMinutes(service, "service", 50, 12, 5, 1);
    // The daily rollup lags 10 days behind: it sums again from the day before its mark.
    await markRollups("date_trunc('day', now() - interval '10 days', 'UTC')");
    expect((await runRetention(own.db, { statsMinuteRetentionMs: 2 * day })).statsMinutesRemoved).toBe(2);
    expect(await minutesOf(service)).toEqual([5, 1]);

    await markRollups("date_trunc('day', now(), 'UTC')");
    await addMinutes(service, "service", 36);
    expect((await runRetention(own.db)).statsMinutesRemoved).toBe(1);
    expect(await minutesOf(service)).toEqual([5, 1]);
  });

  it("spreads a backlog of minutes over passes, each taking up where the last stopped", async () => {
    const service = uniqueId("svc");
    await addMinutes(service, "service", 60, 59, 58);
    const options = { statsMinuteRetentionMs: 50 * day, batchSize: 1, statsMinuteBatches: 1 };
    expect(await runRetention(own.db, options)).toMatchObject({ statsMinutesRemoved: 1, complete: true });
    expect(await runRetention(own.db, options)).toMatchObject({ statsMinutesRemoved: 1, complete: true });
    expect(await minutesOf(service)).toEqual([58]);
    expect((await runRetention(own.db, { statsMinuteRetentionMs: 50 * day })).statsMinutesRemoved).toBe(1);
    expect(await minutesOf(service)).toEqual([]);
  });
});
