import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const hash = "c".repeat(64);

describe("a key's state, its deletion and the in_progress answer", () => {
  it("answers 409 in_progress with Retry-After, the attempt and since when; a replay with the attempt and completion time", async () => {
    const scope = uniqueId("scope");
    const base = `/api/v1/idempotency/${scope}`;
    const started = await api.request("POST", `${base}/begin`, { key: "k", requestHash: hash });
    const busy = await api.request("POST", `${base}/begin`, { key: "k", requestHash: hash });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: "in_progress", attempt: 1, lockedUntil: started.body.lockedUntil, waited: false });
    expect(Date.parse(busy.body.error.startedAt)).toBeLessThanOrEqual(Date.parse(started.body.lockedUntil) - 89_000);
    const retryAfter = Number(busy.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(89);
    expect(retryAfter).toBeLessThanOrEqual(91);
    // A lock that has run out still says at least 1 s.
    await store.db.execute(sql`update idempotency_keys set locked_until = now() + interval '100 milliseconds' where scope = ${scope}`);
    expect((await api.request("POST", `${base}/begin`, { key: "k", requestHash: hash })).headers.get("retry-after")).toBe("1");
    const done = await api.request("POST", `${base}/complete`, { key: "k", requestHash: hash, attempt: 1, response: { status: 201, body: "ok" } });
    const replay = await api.request("POST", `${base}/begin`, { key: "k", requestHash: hash });
    expect(replay.body).toMatchObject({ outcome: "completed", attempt: 1, completedAt: done.body.completedAt });
  });

  it("returns a key's state in progress and completed, and 404 for an absent key", async () => {
    const scope = uniqueId("scope");
    const base = `/api/v1/idempotency/${scope}`;
    expect((await api.request("GET", `${base}/k%2F1`)).status).toBe(404);
    const started = await api.request("POST", `${base}/begin`, { key: "k/1", requestHash: hash });
    const held = await api.request("GET", `${base}/k%2F1`);
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({
      scope,
      key: "k/1",
      status: "in_progress",
      attempt: 1,
      requestHash: hash,
      lockedUntil: started.body.lockedUntil,
      lockExpired: false,
      completedAt: null,
      response: null,
    });
    await store.db.execute(sql`update idempotency_keys set locked_until = now() - interval '1 second' where scope = ${scope}`);
    expect((await api.request("GET", `${base}/k%2F1`)).body.lockExpired).toBe(true);
    const stored = { status: 202, body: "accepted", headers: { "x-id": "7" } };
    const done = await api.request("POST", `${base}/complete`, { key: "k/1", requestHash: hash, attempt: 1, response: stored });
    const state = await api.request("GET", `${base}/k%2F1`);
    expect(state.body).toMatchObject({ status: "completed", attempt: 1, lockedUntil: null, completedAt: done.body.completedAt, expiresAt: done.body.expiresAt, response: stored });
  });

  it("lets an operator delete a completed key with a reason, audited; the next begin is the next attempt", async () => {
    const scope = uniqueId("scope");
    const base = `/api/v1/idempotency/${scope}`;
    const operator = await api.createToken({ name: "ops", role: "operator", idempotencyScopes: [scope] });
    const service = await api.createToken({ name: "svc", role: "service", idempotencyScopes: [scope] });
    await api.request("POST", `${base}/begin`, { key: "k", requestHash: hash });
    const inProgress = await api.as(operator).request("DELETE", `${base}/k`, { reason: "replay the order" });
    expect(inProgress.status).toBe(409);
    expect(inProgress.body.error.message).toMatch(/release it/);
    await api.request("POST", `${base}/complete`, { key: "k", requestHash: hash, attempt: 1, response: { status: 200, body: "paid" } });
    const noReason = await api.as(operator).request("DELETE", `${base}/k`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.field).toBe("reason");
    expect((await api.as(service).request("DELETE", `${base}/k`, { reason: "a service may not" })).status).toBe(403);
    const deleted = await api.as(operator).request("DELETE", `${base}/k`, { reason: "replay the order" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ scope, key: "k", deleted: true, attempt: 1 });
    expect((await api.request("GET", `${base}/k`)).status).toBe(404);
    expect((await api.as(operator).request("DELETE", `${base}/k`, { reason: "again" })).status).toBe(404);
    const audit = await store.db.execute<{ action: string; reason: string; details: { key: string; attempt: number } }>(
      sql`select action, reason, details from audit_log where target = ${`idempotency_scope:${scope}`}`,
    );
    expect(audit.rows).toEqual([expect.objectContaining({ action: "idempotency_key.delete", reason: "replay the order", details: expect.objectContaining({ key: "k", attempt: 1 }) })]);
    const other = "e".repeat(64);
    expect((await api.request("POST", `${base}/begin`, { key: "k", requestHash: other })).body).toMatchObject({ outcome: "started", attempt: 2 });
    // A holder of the first attempt stays fenced off.
    const stale = await api.request("POST", `${base}/complete`, { key: "k", requestHash: other, attempt: 1, response: { status: 200, body: "x" } });
    expect(stale.status).toBe(409);
  });
});
