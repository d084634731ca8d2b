import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { routeCaller, uniqueGroup } from "@/lib/dedup/window/test-helpers";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let call: Awaited<ReturnType<typeof routeCaller>>;

beforeAll(async () => {
  store = await createTestDatabase();
  call = await routeCaller(store);
});

const hashA = "a".repeat(64);
const hashB = "b".repeat(64);

describe("idempotency API", () => {
  it("answers 201 started, 409 in progress, 200 with the stored response, 422 mismatch", async () => {
    const scope = uniqueGroup("scope");
    const base = `/api/v1/idempotency/${scope}`;
    const started = await call("POST", `${base}/begin`, { key: "order-1", requestHash: hashA });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ outcome: "started", scope, key: "order-1", requestHash: hashA, attempt: 1 });
    const busy = await call("POST", `${base}/begin`, { key: "order-1", requestHash: hashA });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: "in_progress", attempt: 1, lockedUntil: started.body.lockedUntil });
    const stored = { status: 500, body: "upstream failed\n", headers: { "retry-after": "5" } };
    const done = await call("POST", `${base}/complete`, { key: "order-1", requestHash: hashA, attempt: 1, response: stored });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ attempt: 1, alreadyCompleted: false });
    const replay = await call("POST", `${base}/begin`, { key: "order-1", requestHash: hashA });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ outcome: "completed", response: stored });
    const mismatch = await call("POST", `${base}/begin`, { key: "order-1", requestHash: hashB });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error).toMatchObject({ code: "mismatch", storedHash: hashA, requestHash: hashB });
  });

  it("hashes a `request` body structurally and exactly", async () => {
    const scope = uniqueGroup("scope");
    const base = `/api/v1/idempotency/${scope}`;
    const started = await call("POST", `${base}/begin`, '{"key":"k","request":{"amount":9007199254740993,"to":"x"}}');
    expect(started.body.requestHash).toBe(structuralHash('{"to":"x","amount":9007199254740993}').hash);
    const reordered = await call("POST", `${base}/begin`, '{"request":{"to":"x","amount":9007199254740993},"key":"k"}');
    expect(reordered.status).toBe(409);
    const rounded = await call("POST", `${base}/begin`, '{"key":"k","request":{"amount":9007199254740992,"to":"x"}}');
    expect(rounded.status).toBe(422);
    const both = await call("POST", `${base}/begin`, { key: "k", request: {}, requestHash: hashA });
    expect(both.status).toBe(400);
    expect(both.body.error.field).toBe("requestHash");
  });

  it("releases a key so that a retry can begin it, and refuses to release a completed one", async () => {
    const scope = uniqueGroup("scope");
    const base = `/api/v1/idempotency/${scope}`;
    await call("POST", `${base}/begin`, { key: "k", requestHash: hashA });
    expect((await call("POST", `${base}/release`, { key: "k", attempt: 1 })).body).toEqual({ scope, key: "k", released: true });
    expect((await call("POST", `${base}/begin`, { key: "k", requestHash: hashA })).status).toBe(201);
    await call("POST", `${base}/complete`, { key: "k", requestHash: hashA, attempt: 1, response: { status: 204, body: "" } });
    expect((await call("POST", `${base}/release`, { key: "k", attempt: 1 })).status).toBe(409);
    const other = { key: "other", requestHash: hashA, attempt: 1, response: { status: 200, body: "" } };
    expect((await call("POST", `${base}/complete`, other)).status).toBe(404);
  });

  it("refuses keys over 255 characters and bad scopes", async () => {
    const long = await call("POST", "/api/v1/idempotency/s/begin", { key: "k".repeat(256), requestHash: hashA });
    expect(long.status).toBe(400);
    expect(long.body.error.field).toBe("key");
    const badScope = await call("POST", `/api/v1/idempotency/${encodeURIComponent("no scope")}/begin`, { key: "k", requestHash: hashA });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error.field).toBe("scope");
  });

  it("reads and writes scope settings with an audit row", async () => {
    const scope = uniqueGroup("scope");
    expect((await call("GET", `/api/v1/idempotency-scopes/${scope}`)).status).toBe(404);
    const created = await call("PUT", `/api/v1/idempotency-scopes/${scope}`, { lockSeconds: 30, reason: "payments" });
    expect(created.status).toBe(201);
    expect(created.body.scope).toMatchObject({ id: scope, lockSeconds: 30, retentionSeconds: 86_400 });
    const updated = await call("PUT", `/api/v1/idempotency-scopes/${scope}`, { retentionSeconds: 3600 });
    expect(updated.status).toBe(200);
    expect((await call("GET", `/api/v1/idempotency-scopes/${scope}`)).body).toMatchObject({ lockSeconds: 30, retentionSeconds: 3600 });
    const bad = await call("PUT", `/api/v1/idempotency-scopes/${scope}`, { lockSeconds: 0 });
    expect(bad.status).toBe(400);
    const audit = await store.db.execute<{ actor: string }>(sql`select actor from audit_log where target = ${`idempotency_scope:${scope}`}`);
    expect(audit.rows).toHaveLength(2);
  });
});
