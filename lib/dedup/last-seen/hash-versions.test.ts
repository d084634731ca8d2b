import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { saveService } from "@/lib/services/save-service";
import type { ServiceSettingsInput } from "@/lib/validation/services";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { check, hashForService } from "./check";
import { decideInOrder } from "./decide";
import type { ServiceConfig } from "./service-config";
import { runReset, runUndo } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { undoReset } from "@/lib/reset/undo-reset";
import { revertCheck } from "./revert";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const ORDER = { amount: "10.00", status: "paid", meta: { sentAt: "t1", traceId: "a" } };

async function stored(serviceId: string, messageId: string) {
  const { rows } = await store.db.execute<{ version: number; hash: string; hash_version: number; previous_hash_version: number | null; xmin: string }>(
    sql`select version::int, encode(hash, 'hex') as hash, hash_version, previous_hash_version, xmin::text
        from last_seen where service_id = ${serviceId} and message_id = ${messageId}`,
  );
  return rows[0];
}

const settle = (serviceId: string, input: ServiceSettingsInput) => saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input });
const decide = (serviceId: string, messageId: string, payload: unknown) => check(store.db, { serviceId, messageId, payload });

describe("hash settings versions", () => {
  it("keep an unchanged payload a duplicate across a settings change, and move the key to the new settings once", async () => {
    const serviceId = await createService(store.db);
    expect((await decide(serviceId, "o-1", ORDER)).decision).toBe("new");
    const { service } = await settle(serviceId, { includedPaths: ["/amount", "/status"] });
    expect(service.hashVersion).toBe(2);

    const again = await decide(serviceId, "o-1", ORDER);
    expect(again).toMatchObject({ decision: "duplicate", version: 1, hashVersion: 2 });
    const upgraded = await stored(serviceId, "o-1");
    expect(upgraded).toMatchObject({ version: 1, hash: again.hash, hash_version: 2 });

    // Now compared under the current settings alone: nothing is written any more.
    expect((await decide(serviceId, "o-1", { ...ORDER, meta: { sentAt: "t2" } })).decision).toBe("duplicate");
    expect((await stored(serviceId, "o-1"))!.xmin).toBe(upgraded!.xmin);
  });

  it("compare a key stored under older settings under those settings", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/meta"] });
    await decide(serviceId, "o-1", ORDER);
    await decide(serviceId, "o-2", ORDER);
    await settle(serviceId, { ignoredPaths: [] });
    // Unchanged under the settings that stored it (meta was not hashed then): a duplicate.
    expect((await decide(serviceId, "o-1", { ...ORDER, meta: { sentAt: "t9" } })).decision).toBe("duplicate");
    // A field both settings hash changed: a change, stored under the current settings.
    const changed = await decide(serviceId, "o-2", { ...ORDER, status: "refunded" });
    expect(changed).toMatchObject({ decision: "changed", version: 2, hashVersion: 2 });
    expect(await stored(serviceId, "o-2")).toMatchObject({ hash_version: 2, previous_hash_version: 1 });
    // From now on meta counts for o-2, whose hash was made under the current settings.
    expect((await decide(serviceId, "o-2", { ...ORDER, status: "refunded", meta: { sentAt: "t10" } })).decision).toBe("changed");
  });

  it("never store the hash of a payload that only matched the accepted one under wider settings", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/meta"] });
    const accepted = await decide(serviceId, "o-1", ORDER);
    await settle(serviceId, { ignoredPaths: [] });
    // Equal to the accepted payload under the settings that stored it: a duplicate, but its meta was
    // never accepted, so the key keeps the accepted payload's hash and settings.
    expect((await decide(serviceId, "o-1", { ...ORDER, meta: { sentAt: "t9" } })).decision).toBe("duplicate");
    expect(await stored(serviceId, "o-1")).toMatchObject({ version: 1, hash: accepted.hash, hash_version: 1 });
    // The payload that was accepted, redelivered: still a duplicate, never a change.
    expect((await decide(serviceId, "o-1", ORDER)).decision).toBe("duplicate");
    // A real change moves the key to the current settings; meta counts from then on.
    expect((await decide(serviceId, "o-1", { ...ORDER, status: "refunded" })).decision).toBe("changed");
    expect(await stored(serviceId, "o-1")).toMatchObject({ version: 2, hash_version: 2 });
    expect((await decide(serviceId, "o-1", { ...ORDER, status: "refunded", meta: { sentAt: "t10" } })).decision).toBe("changed");
  });

  it("judge a key by the current settings at once when its accepted payload is kept", async () => {
    const widened = await createService(store.db, { ignoredPaths: ["/meta"], historyDepth: 3 });
    await decide(widened, "o-1", ORDER);
    await settle(widened, { ignoredPaths: [], historyDepth: 3 });
    // The kept payload is hashed under the current settings: the key moves to them, exactly.
    const same = await decide(widened, "o-1", ORDER);
    expect(same).toMatchObject({ decision: "duplicate", version: 1, hashVersion: 2 });
    expect(await stored(widened, "o-1")).toMatchObject({ version: 1, hash: same.hash, hash_version: 2 });
    // Meta is hashed now, and this meta was not the accepted one: a change.
    expect((await decide(widened, "o-1", { ...ORDER, meta: { sentAt: "t9" } })).decision).toBe("changed");

    // Narrowed: a payload that differs only in what the new settings drop is a duplicate, not a change.
    const narrowed = await createService(store.db, { historyDepth: 3 });
    await decide(narrowed, "o-1", ORDER);
    await settle(narrowed, { ignoredPaths: ["/meta"], historyDepth: 3 });
    expect((await decide(narrowed, "o-1", { ...ORDER, meta: { sentAt: "t9" } })).decision).toBe("duplicate");
    expect(await stored(narrowed, "o-1")).toMatchObject({ version: 1, hash_version: 2 });
  });

  it("decide a key stored under newer settings than a node knows under those, never moving it back", async () => {
    const serviceId = await createService(store.db);
    await decide(serviceId, "o-1", ORDER);
    await settle(serviceId, { ignoredPaths: ["/meta"] });
    expect((await decide(serviceId, "o-1", ORDER)).hashVersion).toBe(2);
    // A node that has yet to see the change still hashes everything, under version 1.
    const outdated: ServiceConfig = { id: serviceId, historyDepth: 0, ignoredPaths: [], includedPaths: [], hashVersion: 1, pathFilter: null };
    const refunded = { ...ORDER, status: "refunded" };
    const [fromOutdated] = await decideInOrder(store.db, [hashForService(outdated, "o-1", JSON.stringify(refunded))]);
    expect(fromOutdated).toMatchObject({ decision: "changed", version: 2, hashVersion: 2 });
    expect(await stored(serviceId, "o-1")).toMatchObject({ version: 2, hash_version: 2 });
    // So the current settings still drop meta for this key.
    expect((await decide(serviceId, "o-1", { ...refunded, meta: { sentAt: "t9" } })).decision).toBe("duplicate");
  });

  it("hash only the included paths", async () => {
    const serviceId = await createService(store.db, { includedPaths: ["/amount"], ignoredPaths: ["/meta/sentAt"] });
    expect((await decide(serviceId, "o-1", ORDER)).decision).toBe("new");
    expect((await decide(serviceId, "o-1", { ...ORDER, status: "refunded", meta: {} })).decision).toBe("duplicate");
    expect((await decide(serviceId, "o-1", { ...ORDER, amount: "11.00" })).decision).toBe("changed");
  });

  it("answer concurrent first checks after a change the same, with one upgrade", async () => {
    const serviceId = await createService(store.db);
    await decide(serviceId, "o-1", ORDER);
    await settle(serviceId, { ignoredPaths: ["/meta/traceId"] });
    const answers = await Promise.all(Array.from({ length: 8 }, () => decide(serviceId, "o-1", ORDER)));
    expect(new Set(answers.map((a) => `${a.decision}@${a.version}`))).toEqual(new Set(["duplicate@1"]));
    expect(await stored(serviceId, "o-1")).toMatchObject({ version: 1, hash_version: 2 });
  });

  it("count only a real change of the paths as a new version", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/b", "/a"] });
    const { service } = await settle(serviceId, { ignoredPaths: ["/a", "/b", "/a"], historyDepth: 3 });
    expect(service).toMatchObject({ hashVersion: 1, ignoredPaths: ["/a", "/b"], historyDepth: 3 });
    const { rows } = await store.db.execute(sql`select hash_version from service_hash_settings where service_id = ${serviceId}`);
    expect(rows).toEqual([{ hash_version: 1 }]);
  });

  it("revert a change made across a settings change to the hash and settings it replaced", async () => {
    const serviceId = await createService(store.db);
    await decide(serviceId, "o-1", ORDER);
    await settle(serviceId, { includedPaths: ["/status"] });
    const changed = await decide(serviceId, "o-1", { ...ORDER, status: "refunded" });
    expect(changed.decision).toBe("changed");
    await revertCheck({ db: store.db, actor: SYSTEM_ACTOR, input: { serviceId, messageId: "o-1", version: changed.version } });
    expect(await stored(serviceId, "o-1")).toMatchObject({ version: 1, hash_version: 1, previous_hash_version: null });
    // The replay of the original is compared under the settings that stored it.
    expect((await decide(serviceId, "o-1", ORDER)).decision).toBe("duplicate");
  });

  it("keep each key's settings version through a reset and its undo", async () => {
    const serviceId = await createService(store.db);
    await decide(serviceId, "o-1", ORDER);
    await settle(serviceId, { includedPaths: ["/amount"] });
    await decide(serviceId, "o-2", ORDER);
    const selection = { kind: "last_seen" as const, subject: serviceId, mode: "filter" as const, prefix: "o-" };
    const operator = { id: "ops@example.com", role: "operator" as const };
    const started = await startReset({ db: store.db, actor: operator, input: { selection, reason: "replay" } });
    await runReset(store.db, started.id);
    expect(await stored(serviceId, "o-1")).toBeUndefined();
    await undoReset({ db: store.db, actor: operator, input: { batchId: started.id, reason: "replay cancelled" } });
    await runUndo(store.db, started.id);
    expect(await stored(serviceId, "o-1")).toMatchObject({ hash_version: 1 });
    expect(await stored(serviceId, "o-2")).toMatchObject({ hash_version: 2 });
    expect((await decide(serviceId, "o-1", { ...ORDER, status: "void" })).decision).toBe("changed");
    expect((await decide(serviceId, "o-2", { ...ORDER, status: "void" })).decision).toBe("duplicate");
  });

  it("save only what was read when asked to: a save in between is a conflict, a missing service not found", async () => {
    const serviceId = await createService(store.db);
    const { service: read } = await settle(serviceId, { historyDepth: 1 });
    const asRead = { updatedAt: read.updatedAt.toISOString() };
    const saveAsRead = (input: ServiceSettingsInput) => saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input, ifUnchanged: asRead });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await saveAsRead({ includedPaths: ["/a"] })).service.hashVersion).toBe(2);
    await expect(saveAsRead({ includedPaths: ["/b"] })).rejects.toBeInstanceOf(ConflictError);
    await expect(
      saveService({ db: store.db, actor: SYSTEM_ACTOR, id: `${serviceId}-none`, input: {}, ifUnchanged: asRead }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const { rows } = await store.db.execute(sql`select included_paths from services where id = ${serviceId}`);
    expect(rows).toEqual([{ included_paths: ["/a"] }]);
  });
});
