import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "@/lib/errors";
import { withWideDb } from "@/lib/dedup/window/test-helpers";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { begin } from "./begin";
import { complete } from "./complete";
import { release } from "./release";
import { ageKey } from "./test-helpers";
import { findIdempotencyScope, setScopeSettings } from "./scopes";

const actor = { id: "test", role: "admin" as const };
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const hashA = "a".repeat(64);
const hashB = "b".repeat(64);
const newScope = () => `scope-${randomBytes(4).toString("hex")}`;
const response = { status: 201, body: '{"id": 7,  "total": 10.50}', headers: { "content-type": "application/json" } };

const age = ageKey;

describe("begin / complete / release", () => {
  it("walks the whole state machine: started, in progress, completed, replayed", async () => {
    const scope = newScope();
    const ref = { scope, key: "order-1", requestHash: hashA };
    const started = await begin(store.db, ref);
    expect(started).toMatchObject({ outcome: "started", attempt: 1 });
    expect(await begin(store.db, ref)).toMatchObject({ outcome: "in_progress", attempt: 1 });
    const done = await complete(store.db, { ...ref, attempt: 1, response });
    expect(done).toMatchObject({ attempt: 1, alreadyCompleted: false });
    const replay = await begin(store.db, ref);
    expect(replay).toEqual({ outcome: "completed", attempt: 1, response, completedAt: done.completedAt, firstRef: null });
    expect(await begin(store.db, ref)).toEqual(replay);
  });

  it("replays a stored 500 verbatim", async () => {
    const scope = newScope();
    const ref = { scope, key: "k", requestHash: hashA };
    await begin(store.db, ref);
    const failure = {
      status: 500,
      body: 'Internal error\n  at line 3 \u00e9\u{1F600} {"not": json',
      headers: { "content-type": "text/plain", "x-trace": "abc" },
    };
    await complete(store.db, { ...ref, attempt: 1, response: failure });
    const replay = await begin(store.db, ref);
    expect(replay.outcome).toBe("completed");
    if (replay.outcome === "completed") expect(replay.response).toEqual(failure);
  });

  it("answers mismatch with both hashes for another request under the same key, in any state", async () => {
    const scope = newScope();
    await begin(store.db, { scope, key: "k", requestHash: hashA });
    expect(await begin(store.db, { scope, key: "k", requestHash: hashB })).toEqual({
      outcome: "mismatch",
      storedHash: hashA,
      requestHash: hashB,
      firstRef: null,
    });
    await expect(complete(store.db, { scope, key: "k", requestHash: hashB, attempt: 1, response })).rejects.toBeInstanceOf(UnprocessableError);
    await complete(store.db, { scope, key: "k", requestHash: hashA, attempt: 1, response });
    expect(await begin(store.db, { scope, key: "k", requestHash: hashB })).toMatchObject({ outcome: "mismatch", storedHash: hashA });
  });

  it("gives exactly one started among 50 concurrent begins", async () => {
    const scope = newScope();
    const results = await withWideDb(store.url, 50, (db) =>
      Promise.all(Array.from({ length: 50 }, () => begin(db, { scope, key: "race", requestHash: hashA }))),
    );
    expect(results.filter((r) => r.outcome === "started")).toHaveLength(1);
    expect(results.filter((r) => r.outcome === "in_progress")).toHaveLength(49);
  });

  it("lets exactly one of several concurrent begins take over a crashed caller's expired lock", async () => {
    const scope = newScope();
    const ref = { scope, key: "crash", requestHash: hashA };
    expect(await begin(store.db, ref)).toMatchObject({ outcome: "started", attempt: 1 });
    // The caller crashes; nothing happens until its lock expires.
    expect(await begin(store.db, ref)).toMatchObject({ outcome: "in_progress" });
    await age(store.db, scope, "crash", 91);
    const results = await withWideDb(store.url, 20, (db) => Promise.all(Array.from({ length: 20 }, () => begin(db, ref))));
    const takers = results.filter((r) => r.outcome === "started");
    expect(takers).toHaveLength(1);
    expect(takers[0]).toMatchObject({ attempt: 2 });
    expect(results.filter((r) => r.outcome === "in_progress")).toHaveLength(19);
    // The crashed attempt is fenced off; the taker completes.
    await expect(complete(store.db, { ...ref, attempt: 1, response })).rejects.toBeInstanceOf(ConflictError);
    await expect(release(store.db, { ...ref, attempt: 1 })).rejects.toBeInstanceOf(ConflictError);
    expect(await complete(store.db, { ...ref, attempt: 2, response })).toMatchObject({ attempt: 2 });
    expect(await begin(store.db, ref)).toMatchObject({ outcome: "completed", response });
  });

  it("takes over after a real one-second lock on the database clock", async () => {
    const scope = newScope();
    await setScopeSettings(store.db, { scope, lockSeconds: 1, reason: "short locks", actor });
    const ref = { scope, key: "k", requestHash: hashA };
    await begin(store.db, ref);
    expect((await begin(store.db, ref)).outcome).toBe("in_progress");
    await store.db.execute(sql`select pg_sleep(1.1)`);
    expect(await begin(store.db, ref)).toMatchObject({ outcome: "started", attempt: 2 });
  });

  it("does not let another request take over an expired lock", async () => {
    const scope = newScope();
    await begin(store.db, { scope, key: "k", requestHash: hashA });
    await age(store.db, scope, "k", 91);
    expect(await begin(store.db, { scope, key: "k", requestHash: hashB })).toMatchObject({ outcome: "mismatch" });
  });

  it("gives the key back on release so that a retry, of any request, starts it as the next attempt", async () => {
    const scope = newScope();
    const ref = { scope, key: "k", requestHash: hashA };
    await begin(store.db, ref);
    expect(await release(store.db, { scope, key: "k", attempt: 1 })).toEqual({ released: true });
    expect(await release(store.db, { scope, key: "k", attempt: 1 })).toEqual({ released: false });
    // The released attempt is fenced off: it can neither complete nor release the next one.
    await expect(complete(store.db, { ...ref, attempt: 1, response })).rejects.toBeInstanceOf(NotFoundError);
    expect(await begin(store.db, { ...ref, requestHash: hashB })).toMatchObject({ outcome: "started", attempt: 2 });
    await expect(complete(store.db, { ...ref, requestHash: hashB, attempt: 1, response })).rejects.toBeInstanceOf(ConflictError);
    await complete(store.db, { ...ref, requestHash: hashB, attempt: 2, response });
    await expect(release(store.db, { scope, key: "k", attempt: 2 })).rejects.toBeInstanceOf(ConflictError);
    await expect(release(store.db, { scope, key: "k", requestHash: hashA, attempt: 2 })).rejects.toBeInstanceOf(UnprocessableError);
  });

  it("treats a completed key past its retention as absent: it starts over at attempt 1", async () => {
    const scope = newScope();
    await setScopeSettings(store.db, { scope, retentionSeconds: 3600, reason: "short retention", actor });
    const ref = { scope, key: "k", requestHash: hashA };
    await begin(store.db, ref);
    const done = await complete(store.db, { ...ref, attempt: 1, response });
    expect(done.expiresAt.getTime() - done.completedAt.getTime()).toBe(3600 * 1000);
    await age(store.db, scope, "k", 3599);
    expect((await begin(store.db, ref)).outcome).toBe("completed");
    await age(store.db, scope, "k", 2);
    expect(await begin(store.db, { ...ref, requestHash: hashB })).toMatchObject({ outcome: "started", attempt: 1 });
  });

  it("keeps the first response when complete is called again, and refuses to complete an unknown key", async () => {
    const scope = newScope();
    const ref = { scope, key: "k", requestHash: hashA };
    await begin(store.db, ref);
    await complete(store.db, { ...ref, attempt: 1, response });
    const again = await complete(store.db, { ...ref, attempt: 1, response: { status: 200, body: "other", headers: {} } });
    expect(again.alreadyCompleted).toBe(true);
    expect(await begin(store.db, ref)).toMatchObject({ response });
    await expect(complete(store.db, { scope, key: "nope", requestHash: hashA, attempt: 1, response })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("rolls back with the caller's transaction (library mode)", async () => {
    const scope = newScope();
    const ref = { scope, key: "k", requestHash: hashA };
    await expect(
      store.db.transaction(async (tx) => {
        expect((await begin(tx, ref)).outcome).toBe("started");
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect((await begin(store.db, ref)).outcome).toBe("started");
  });

  it("refuses malformed input before it reaches SQL", async () => {
    await expect(begin(store.db, { scope: "s", key: "k", requestHash: "xyz" })).rejects.toBeInstanceOf(ValidationError);
    await expect(begin(store.db, { scope: "s", key: "k".repeat(256), requestHash: hashA })).rejects.toBeInstanceOf(ValidationError);
    await begin(store.db, { scope: "s", key: "k".repeat(255), requestHash: hashA });
    await expect(
      complete(store.db, { scope: "s", key: "k".repeat(255), requestHash: hashA, attempt: 1, response: { ...response, status: 99 } }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("enforces the lock-expiry invariant in the schema", async () => {
    await expect(
      store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, expires_at)
        values ('s', 'no-lock', '\\x00', 'in_progress', now() + interval '1 day')`),
    ).rejects.toThrow();
  });
});

describe("scope settings", () => {
  it("creates and updates a scope with audit rows; new keys use its lock", async () => {
    const scope = newScope();
    const created = await setScopeSettings(store.db, { scope, lockSeconds: 30, reason: "payments", actor });
    expect(created).toMatchObject({ created: true, changed: true, scope: { lockSeconds: 30, retentionSeconds: 86_400 } });
    const same = await setScopeSettings(store.db, { scope, lockSeconds: 30, reason: null, actor });
    expect(same.changed).toBe(false);
    await setScopeSettings(store.db, { scope, retentionSeconds: 600, reason: "shorter", actor });
    expect(await findIdempotencyScope(store.db, scope)).toMatchObject({ lockSeconds: 30, retentionSeconds: 600 });
    const started = await begin(store.db, { scope, key: "k", requestHash: hashA });
    const now = await store.db.execute<{ now: Date }>(sql`select now()`);
    if (started.outcome !== "started") throw new Error("expected started");
    const lockMs = started.lockedUntil.getTime() - new Date(now.rows[0]!.now).getTime();
    expect(lockMs).toBeGreaterThan(28_000);
    expect(lockMs).toBeLessThanOrEqual(31_000);
    const audit = await store.db.execute<{ action: string }>(
      sql`select action from audit_log where target = ${`idempotency_scope:${scope}`} order by id`,
    );
    expect(audit.rows.map((r: { action: string }) => r.action)).toEqual(["idempotency_scope.create", "idempotency_scope.update"]);
  });
});
