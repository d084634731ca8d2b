import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { check, checkMany } from "./check";
import { revertCheck } from "./revert";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase({ poolMax: 8 });
});

const MACHINE: Actor = { id: "token:tok_revert", role: "service", via: "token" };
const revert = (serviceId: string, messageId: string, version: number, actor = MACHINE) =>
  revertCheck({ db: store.db, actor, input: { serviceId, messageId, version } });

async function stored(serviceId: string, messageId: string) {
  const { rows } = await store.db.execute<{ version: number; hash: string; previous: string | null }>(
    sql`select version::int, encode(hash, 'hex') as hash, encode(previous_hash, 'hex') as previous from last_seen
        where service_id = ${serviceId} and message_id = ${messageId}`,
  );
  return rows[0];
}

async function storedVersions(serviceId: string, messageId: string) {
  const { rows } = await store.db.execute<{ version: number }>(
    sql`select version::int from payload_versions where service_id = ${serviceId} and message_id = ${messageId} order by version`,
  );
  return rows.map((r: { version: number }) => r.version);
}

describe("why a check was a duplicate", () => {
  it("a duplicate carries the version it matched and when that version was accepted", async () => {
    const serviceId = await createService(store.db);
    const first = await check(store.db, { serviceId, messageId: "w", payload: { a: 1 } });
    const changed = await check(store.db, { serviceId, messageId: "w", payload: { a: 2 } });
    const again = await check(store.db, { serviceId, messageId: "w", payload: { a: 2 } });
    expect(first.acceptedAt).toBeInstanceOf(Date);
    expect(changed.acceptedAt.getTime()).toBeGreaterThanOrEqual(first.acceptedAt.getTime());
    expect(again).toMatchObject({ decision: "duplicate", version: 2, acceptedAt: changed.acceptedAt });
  });

  it("a reverted change gives the restored version back its acceptance time", async () => {
    const serviceId = await createService(store.db);
    const first = await check(store.db, { serviceId, messageId: "wr", payload: { a: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const changed = await check(store.db, { serviceId, messageId: "wr", payload: { a: 2 } });
    expect(changed.acceptedAt.getTime()).toBeGreaterThan(first.acceptedAt.getTime());
    await revert(serviceId, "wr", changed.version);
    const replay = await check(store.db, { serviceId, messageId: "wr", payload: { a: 1 } });
    expect(replay).toMatchObject({ decision: "duplicate", version: 1, acceptedAt: first.acceptedAt });
  });

  it("batch answers carry it too, duplicates inside one batch included", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    const [a, b, c] = await checkMany(store.db, [
      { serviceId, messageId: "wb", payload: 1 },
      { serviceId, messageId: "wb", payload: 1 },
      { serviceId, messageId: "other", payload: 1 },
    ]);
    expect(b).toMatchObject({ decision: "duplicate", version: 1, acceptedAt: a!.acceptedAt });
    expect(c!.acceptedAt).toBeInstanceOf(Date);
  });

  it("a change keeps the hash it replaced; a duplicate writes nothing", async () => {
    const serviceId = await createService(store.db);
    const first = await check(store.db, { serviceId, messageId: "p", payload: "A" });
    expect((await stored(serviceId, "p"))!.previous).toBeNull();
    await check(store.db, { serviceId, messageId: "p", payload: "B" });
    await check(store.db, { serviceId, messageId: "p", payload: "B" });
    expect(await stored(serviceId, "p")).toMatchObject({ version: 2, previous: first.hash });
  });
});

describe("revert a last-seen decision", () => {
  it("restores the previous hash and version while the key is still at that version, audited", async () => {
    const serviceId = await createService(store.db, { historyDepth: 3 });
    const a = await check(store.db, { serviceId, messageId: "r", payload: { v: "A" } });
    const b = await check(store.db, { serviceId, messageId: "r", payload: { v: "B" } });
    const result = await revert(serviceId, "r", b.version);
    expect(result).toEqual({ serviceId, messageId: "r", revertedVersion: 2, version: 1, hash: a.hash });
    expect(await stored(serviceId, "r")).toMatchObject({ version: 1, hash: a.hash, previous: null });
    expect(await storedVersions(serviceId, "r")).toEqual([1]);
    // The redelivery of B is decided afresh; A again is a duplicate of version 1.
    expect((await check(store.db, { serviceId, messageId: "r", payload: { v: "A" } })).decision).toBe("duplicate");
    expect(await check(store.db, { serviceId, messageId: "r", payload: { v: "B" } })).toMatchObject({ decision: "changed", version: 2 });
    const audit = await store.db.execute<{ action: string; actor: string; actor_role: string; affected: number; details: Record<string, unknown> }>(
      sql`select action, actor, actor_role, affected, details from audit_log where target = ${`service:${serviceId}`} and action = 'last_seen.revert'`,
    );
    expect(audit.rows).toEqual([
      { action: "last_seen.revert", actor: "token:tok_revert", actor_role: "service", affected: 1, details: { messageId: "r", revertedVersion: 2, version: 1 } },
    ]);
  });

  it("reverting a new leaves no state: the redelivery is new again", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    await check(store.db, { serviceId, messageId: "n", payload: 1 });
    expect(await revert(serviceId, "n", 1)).toEqual({ serviceId, messageId: "n", revertedVersion: 1, version: null, hash: null });
    expect(await stored(serviceId, "n")).toBeUndefined();
    expect(await storedVersions(serviceId, "n")).toEqual([]);
    expect((await check(store.db, { serviceId, messageId: "n", payload: 1 })).decision).toBe("new");
  });

  it("refuses a stale version with 409 naming the current one, and changes nothing", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "s", payload: 1 });
    const b = await check(store.db, { serviceId, messageId: "s", payload: 2 });
    const c = await check(store.db, { serviceId, messageId: "s", payload: 3 });
    const refused = await revert(serviceId, "s", b.version).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).details).toEqual({ version: 3 });
    expect((await revert(serviceId, "s", 1).catch((err: unknown) => err)) as ConflictError).toBeInstanceOf(ConflictError);
    expect(await stored(serviceId, "s")).toMatchObject({ version: 3, hash: c.hash });
  });

  it("takes back only the latest change: a second revert of the restored version is a 409", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "t", payload: 1 });
    await check(store.db, { serviceId, messageId: "t", payload: 2 });
    await check(store.db, { serviceId, messageId: "t", payload: 3 });
    await revert(serviceId, "t", 3);
    const again = await revert(serviceId, "t", 2).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(ConflictError);
    expect((again as Error).message).toMatch(/not kept/);
  });

  it("404 for a key with no state or an unregistered service; 403 for a token of another service", async () => {
    const serviceId = await createService(store.db);
    await expect(revert(serviceId, "absent", 1)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revert("svc-not-registered", "absent", 1)).rejects.toBeInstanceOf(NotFoundError);
    const other: Actor = { ...MACHINE, scopes: { services: ["elsewhere"], consumerGroups: [], idempotencyScopes: [] } };
    await expect(revert(serviceId, "absent", 1, other)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("is linearizable with concurrent checks: every answer fits one order of the operations", async () => {
    const serviceId = await createService(store.db);
    for (let round = 0; round < 10; round++) {
      const messageId = `race-${round}`;
      await check(store.db, { serviceId, messageId, payload: "A" });
      const b = await check(store.db, { serviceId, messageId, payload: "B" });
      const [reverted, ...checks] = await Promise.allSettled([
        revert(serviceId, messageId, b.version),
        ...Array.from({ length: 6 }, (_, i) => check(store.db, { serviceId, messageId, payload: i % 2 ? "B" : "C" })),
      ]);
      const answers = checks.map((c) => (c as PromiseFulfilledResult<Awaited<ReturnType<typeof check>>>).value);
      const writes = answers.filter((a) => a.decision !== "duplicate").length;
      const row = (await stored(serviceId, messageId))!;
      // Each change added one version; a successful revert took exactly one back.
      if (reverted.status === "fulfilled") {
        expect(row.version).toBe(2 + writes - 1);
      } else {
        expect(reverted.reason).toBeInstanceOf(ConflictError);
        expect(row.version).toBe(2 + writes);
        expect(writes).toBeGreaterThan(0);
      }
      const versions = answers.map((a) => a.version);
      expect(new Set(versions.filter((_, i) => answers[i]!.decision !== "duplicate")).size).toBe(writes);
    }
  });
});
