import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { runRaw, type RawStatement } from "@/db/raw";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { complete } from "./complete";
import { release } from "./release";
import { ageKey } from "./test-helpers";
import { setScopeSettings } from "./scopes";
import { beginOneStatement, beginStatement, type KeyRef, type KeyRow } from "./statements";

// The one-key function (Citus) and the one statement (PostgreSQL) must give the same answers.
let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const hashA = "a".repeat(64);
const hashB = "b".repeat(64);
const actor = { id: "test", role: "admin" as const };

const age = (scope: string, key: string, seconds: number) => ageKey(store.db, scope, key, seconds);

const waiters = async (scope: string, key: string) =>
  (await store.db.execute<{ waiters: boolean }>(sql`select waiters from idempotency_keys where scope = ${scope} and key = ${key}`)).rows[0]?.waiters;

/** One key through every state; each step's answer as [verdict, attempt, stored hash, lock seconds, waiters after]. */
async function walk(statementOf: (ref: KeyRef) => RawStatement): Promise<unknown[]> {
  const scope = `fn-${randomBytes(4).toString("hex")}`;
  await setScopeSettings(store.db, { scope, lockSeconds: 30, retentionSeconds: 3600, reason: "walk", actor });
  const answers: unknown[] = [];
  const step = async (requestHash: string) => {
    const [row] = await runRaw<KeyRow>(store.db, statementOf({ scope, key: "k", requestHash }));
    const lock = row?.locked_until ? Math.round((new Date(row.locked_until).getTime() - new Date(row.created_at).getTime()) / 1000) : null;
    answers.push(row && [row.verdict, Number(row.attempt), row.stored_hash, lock, await waiters(scope, "k")]);
  };
  await step(hashA); // started 1
  await step(hashA); // in progress
  await step(hashB); // mismatch
  await age(scope, "k", 31);
  await step(hashB); // another request may not take an expired lock: mismatch
  await step(hashA); // takeover: started 2
  await release(store.db, { scope, key: "k", requestHash: hashA, attempt: 2 });
  await store.db.execute(sql`update idempotency_keys set waiters = true where scope = ${scope}`);
  await step(hashB); // a released key, taken by any request: started 3, still awaited
  await complete(store.db, { scope, key: "k", requestHash: hashB, attempt: 3, response: { status: 200, body: "ok", headers: { a: "b" } } });
  await step(hashB); // completed
  await step(hashA); // mismatch
  await age(scope, "k", 3700);
  await step(hashA); // past retention: started over at attempt 1, no waiters
  return answers;
}

describe("begin on one key: function and statement agree", () => {
  it("walks started, in progress, mismatch, takeover, release, completed and expiry the same way", async () => {
    const byStatement = await walk(beginStatement);
    const byFunction = await walk(beginOneStatement);
    expect(byFunction).toEqual(byStatement);
    expect(byFunction.map((answer) => (answer as unknown[])[0])).toEqual([
      "started", "in_progress", "mismatch", "mismatch", "started", "started", "completed", "mismatch", "started",
    ]);
    expect(byFunction.map((answer) => (answer as unknown[])[1])).toEqual([1, 1, 1, 1, 2, 3, 3, 3, 1]);
    expect((byFunction[5] as unknown[])[4]).toBe(true);
    expect((byFunction[8] as unknown[])[4]).toBe(false);
  });

  it("returns the stored response of a completed key column for column", async () => {
    const scope = `fn-${randomBytes(4).toString("hex")}`;
    const ref = { scope, key: "done", requestHash: hashA };
    await runRaw(store.db, beginStatement(ref));
    await complete(store.db, { ...ref, attempt: 1, response: { status: 201, body: "{\"x\": 1}", headers: { "content-type": "json" } } });
    const [fromStatement] = await runRaw<KeyRow>(store.db, beginStatement(ref));
    const [fromFunction] = await runRaw<KeyRow>(store.db, beginOneStatement(ref));
    expect(fromFunction).toEqual(fromStatement);
    expect(Object.keys(fromFunction!)).toEqual(Object.keys(fromStatement!));
  });
});
