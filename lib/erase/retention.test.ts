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

const count = async (query: ReturnType<typeof sql>) => Number(((await store.db.execute(query)).rows[0] as { n: number }).n);

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
