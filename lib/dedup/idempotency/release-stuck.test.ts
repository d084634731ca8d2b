import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { ForbiddenError } from "@/lib/errors";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { begin } from "./begin";
import { release } from "./release";
import { previewStuckKeys, releaseStuck } from "./release-stuck";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const operator: Actor = { id: "op@weir.test", role: "operator", via: "session", signedInAt: new Date() };
const HASH = "a".repeat(64);

/** Time passes for a started key as it does for one whose caller died: created, locked and expiring `seconds` earlier. */
async function dieAgo(scope: string, key: string, seconds: number) {
  const by = `${seconds} seconds`;
  await store.db.execute(sql`update idempotency_keys set
    created_at = ((created_at at time zone 'UTC') - ${by}::interval) at time zone 'UTC',
    locked_until = ((locked_until at time zone 'UTC') - ${by}::interval) at time zone 'UTC'
    where scope = ${scope} and key = ${key}`);
}

async function started(scope: string, key: string, deadSecondsAgo?: number) {
  const begun = await begin(store.db, { scope, key, requestHash: HASH });
  if (begun.outcome !== "started") throw new Error(`begin ${key}: ${begun.outcome}`);
  if (deadSecondsAgo !== undefined) await dieAgo(scope, key, deadSecondsAgo);
  return begun.attempt;
}

describe("releasing every stuck key of a scope", () => {
  it("previews exactly the stuck keys, oldest first, releases only them, audited; retries then start the next attempt", async () => {
    const scope = "bulk-release";
    for (const [key, ago] of [["dead-1", 7200], ["dead-2", 3600], ["dead-3", 4000]] as const) await started(scope, key, ago);
    await started(scope, "alive");
    const tombstone = await started(scope, "released-already", 7200);
    await release(store.db, { scope, key: "released-already", attempt: tombstone });
    await started("other-scope", "dead-elsewhere", 7200);

    const preview = await previewStuckKeys({ db: store.db, actor: operator, scope });
    expect(preview.count).toBe(3);
    expect(preview.sample.map((k) => k.key)).toEqual(["dead-1", "dead-3", "dead-2"]);
    expect(preview.confirmWord).toBeNull();

    const refused = await api.request("POST", `/api/v1/idempotency-scopes/${scope}/release-stuck`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe("reason");
    const done = await api.request("POST", `/api/v1/idempotency-scopes/${scope}/release-stuck`, { reason: "worker pool crashed at 03:10" });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ scope, released: 3 });

    const [audit] = (await store.db.execute(sql`select action, affected, reason, details from audit_log where id = ${done.body.auditId}`)).rows as {
      action: string; affected: number; reason: string; details: { keys: { key: string }[] };
    }[];
    expect(audit).toMatchObject({ action: "idempotency_scope.release_stuck", affected: 3, reason: "worker pool crashed at 03:10" });
    expect(audit!.details.keys.map((k) => k.key).sort()).toEqual(["dead-1", "dead-2", "dead-3"]);

    // A retry of a released key starts it again; the live one is still held; the other scope is untouched.
    expect(await begin(store.db, { scope, key: "dead-1", requestHash: HASH })).toMatchObject({ outcome: "started", attempt: 2 });
    expect(await begin(store.db, { scope, key: "alive", requestHash: HASH })).toMatchObject({ outcome: "in_progress" });
    expect((await previewStuckKeys({ db: store.db, actor: operator, scope: "other-scope" })).count).toBe(1);
    // Nothing stuck any more: released 0, nothing audited.
    expect((await api.request("POST", `/api/v1/idempotency-scopes/${scope}/release-stuck`, { reason: "again" })).body).toMatchObject({ released: 0, auditId: null });
  });

  it("above 100 keys, needs the scope id typed, counted at release time", async () => {
    const scope = "bulk-many";
    for (let i = 0; i < 101; i++) await started(scope, `k-${i}`);
    await store.db.execute(sql`update idempotency_keys set
      created_at = ((created_at at time zone 'UTC') - '2 hours'::interval) at time zone 'UTC',
      locked_until = ((locked_until at time zone 'UTC') - '2 hours'::interval) at time zone 'UTC' where scope = ${scope}`);
    expect((await previewStuckKeys({ db: store.db, actor: operator, scope })).confirmWord).toBe(scope);
    const unconfirmed = await api.request("POST", `/api/v1/idempotency-scopes/${scope}/release-stuck`, { reason: "crash", confirmation: "yes" });
    expect(unconfirmed.status).toBe(422);
    expect(unconfirmed.body.error).toMatchObject({ field: "confirmation", planned: 101 });
    const confirmed = await releaseStuck({ db: store.db, actor: operator, input: { scope, reason: "crash", confirmation: scope } });
    expect(confirmed.released).toBe(101);
  });

  it("is an operator's: a viewer, and a service token even for its own scope, are refused", async () => {
    const viewer: Actor = { id: "v@weir.test", role: "viewer", via: "session", signedInAt: new Date() };
    await expect(previewStuckKeys({ db: store.db, actor: viewer, scope: "bulk-release" })).rejects.toBeInstanceOf(ForbiddenError);
    const token = await api.createToken({ name: "svc", role: "service", idempotencyScopes: ["bulk-release"] });
    expect((await api.as(token).request("POST", "/api/v1/idempotency-scopes/bulk-release/release-stuck", { reason: "x" })).status).toBe(403);
  });
});
