import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { DbOrTx } from "@/db/types";
import { check, checkMany } from "@/lib/dedup/last-seen/check";
import { ForbiddenError, UnprocessableError, ConflictError } from "@/lib/errors";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { previewReset } from "./preview-reset";
import { runReset, runUndo } from "./run-reset";
import { startReset } from "./start-reset";
import { undoReset } from "./undo-reset";

const operator = { id: "ops@example.com", role: "operator" as const };
const viewer = { id: "look@example.com", role: "viewer" as const };
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

async function rows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

/** A service keeping 3 versions, with keys order-1..order-n at version 2 and other-1..other-m at version 1. */
async function seededService(orders: number, others: number): Promise<string> {
  const serviceId = await createService(store.db, { historyDepth: 3 });
  const ids = Array.from({ length: orders }, (_, i) => `order-${i + 1}`);
  await checkMany(store.db, ids.map((messageId) => ({ serviceId, messageId, payload: { v: 1 } })));
  await checkMany(store.db, ids.map((messageId) => ({ serviceId, messageId, payload: { v: 2, text: "é\u2028" }, ref: `job-${messageId}` })));
  await checkMany(store.db, Array.from({ length: others }, (_, i) => ({ serviceId, messageId: `other-${i + 1}`, payload: { o: i } })));
  return serviceId;
}

const keyState = (serviceId: string) =>
  rows<{ message_id: string; version: number; hash: string; ref: string | null }>(
    store.db,
    sql`select message_id, version::int, encode(hash, 'hex') as hash, ref from last_seen where service_id = ${serviceId} order by message_id`,
  );

const versionsOf = (serviceId: string) =>
  rows<{ message_id: string; version: number; payload: string }>(
    store.db,
    sql`select message_id, version::int, payload from payload_versions where service_id = ${serviceId} order by message_id, version`,
  );

const auditOf = (target: string) =>
  rows<{ action: string; affected: number; reason: string; actor: string; actor_role: string }>(
    store.db,
    sql`select action, affected, reason, actor, actor_role from audit_log where target = ${target} and action like 'reset.%' order by id`,
  );

describe("reset of last-seen keys", () => {
  it("previews, resets in batches with payload versions, audits, and undoes what has no new state", async () => {
    const serviceId = await seededService(7, 3);
    const before = await keyState(serviceId);
    const versionsBefore = await versionsOf(serviceId);
    const selection = { kind: "last_seen" as const, subject: serviceId, mode: "filter" as const, prefix: "order-" };

    const preview = await previewReset({ db: store.db, actor: operator, input: selection });
    expect(preview.count).toBe(7);
    expect(preview.sample.map((s) => s.messageId).sort()).toEqual(before.slice(0, 7).map((k) => k.message_id).sort());
    expect(preview.confirmWord).toBeNull();

    const started = await startReset({ db: store.db, actor: operator, input: { selection, reason: "replay orders" }, batchSize: 2 });
    expect(started).toMatchObject({ status: "running", planned: 7, affected: 0 });
    const done = await runReset(store.db, started.id);
    expect(done).toMatchObject({ status: "done", affected: 7 });
    expect((await keyState(serviceId)).map((k) => k.message_id)).toEqual(["other-1", "other-2", "other-3"]);
    expect((await versionsOf(serviceId)).every((v) => v.message_id.startsWith("other-"))).toBe(true);

    // A replayed key starts again at version 1: its old payload versions went with it.
    const replayed = await check(store.db, { serviceId, messageId: "order-3", payload: { v: 3 } });
    expect(replayed).toMatchObject({ decision: "new", version: 1 });

    const undoing = await undoReset({ db: store.db, actor: operator, input: { batchId: started.id, reason: "replay cancelled" } });
    expect(undoing.status).toBe("undoing");
    const undone = await runUndo(store.db, started.id);
    expect(undone).toMatchObject({ status: "undone", restored: 6, skipped: 1 });

    const after = await keyState(serviceId);
    const order3 = after.find((k) => k.message_id === "order-3")!;
    expect(order3.version).toBe(1);
    expect(after.find((k) => k.message_id === "order-1")?.ref).toBe("job-order-1");
    expect(after.filter((k) => k.message_id !== "order-3")).toEqual(before.filter((k) => k.message_id !== "order-3"));
    const versionsAfter = await versionsOf(serviceId);
    expect(versionsAfter.filter((v) => v.message_id !== "order-3")).toEqual(
      versionsBefore.filter((v) => v.message_id !== "order-3"),
    );
    expect(versionsAfter.find((v) => v.message_id === "order-1" && v.version === 2)?.payload).toBe(
      JSON.stringify({ v: 2, text: "é\u2028" }),
    );
    expect(await auditOf(`service:${serviceId}`)).toEqual([
      { action: "reset.start", affected: 7, reason: "replay orders", actor: operator.id, actor_role: "operator" },
      { action: "reset.complete", affected: 7, reason: "replay orders", actor: operator.id, actor_role: "operator" },
      { action: "reset.undo", affected: 7, reason: "replay cancelled", actor: operator.id, actor_role: "operator" },
      { action: "reset.undo_complete", affected: 6, reason: "replay cancelled", actor: operator.id, actor_role: "operator" },
    ]);
    const [{ n }] = (await rows<{ n: number }>(store.db, sql`select count(*)::int as n from reset_rows where batch_id = ${started.id}`)) as [{ n: number }];
    expect(n).toBe(0);
    await expect(undoReset({ db: store.db, actor: operator, input: { batchId: started.id, reason: "again" } })).rejects.toThrow(
      ConflictError,
    );
  });

  it("never removes a key that changed after the reset started", async () => {
    const serviceId = await seededService(3, 0);
    const selection = { kind: "last_seen" as const, subject: serviceId, mode: "list" as const, messageIds: "order-1\norder-2\n" };
    const started = await startReset({ db: store.db, actor: operator, input: { selection, reason: "replay" } });
    await check(store.db, { serviceId, messageId: "order-2", payload: { v: "changed meanwhile" } });
    const done = await runReset(store.db, started.id);
    expect(done).toMatchObject({ status: "done", planned: 2, affected: 1 });
    expect((await keyState(serviceId)).map((k) => [k.message_id, k.version])).toEqual([
      ["order-2", 3],
      ["order-3", 2],
    ]);
  });

  it("asks for the typed service id above the threshold and refuses viewers and empty selections", async () => {
    const serviceId = await seededService(0, 101);
    const selection = { kind: "last_seen" as const, subject: serviceId, mode: "filter" as const };
    const preview = await previewReset({ db: store.db, actor: operator, input: selection });
    expect(preview).toMatchObject({ count: 101, confirmWord: serviceId });
    const refused = startReset({ db: store.db, actor: operator, input: { selection, reason: "all", confirmation: "yes" } });
    await expect(refused).rejects.toThrow(UnprocessableError);
    await expect(refused).rejects.toMatchObject({ field: "confirmation" });
    await expect(startReset({ db: store.db, actor: viewer, input: { selection, reason: "all" } })).rejects.toThrow(ForbiddenError);
    await expect(
      startReset({ db: store.db, actor: operator, input: { selection: { ...selection, prefix: "zzz" }, reason: "none" } }),
    ).rejects.toThrow(/nothing matches/);
    const started = await startReset({ db: store.db, actor: operator, input: { selection, reason: "all", confirmation: serviceId } });
    expect((await runReset(store.db, started.id))?.affected).toBe(101);
  });
});

describe("reset of window records", () => {
  it("removes and restores claims with their claim times", async () => {
    const group = `grp-${Date.now().toString(36)}`;
    await store.db.execute(sql`insert into window_records (consumer_group, message_id, claimed_at, previous_claimed_at, ref)
      select ${group}, 'm-' || g, now() - make_interval(mins => g), case when g = 1 then now() - interval '2 days' end, 'job-' || g
      from generate_series(1, 5) g`);
    const snapshot = () =>
      rows<{ message_id: string; claimed_at: string; previous_claimed_at: string | null; ref: string | null }>(
        store.db,
        sql`select message_id, claimed_at::text, previous_claimed_at::text, ref from window_records where consumer_group = ${group} order by message_id`,
      );
    const before = await snapshot();
    const selection = { kind: "window" as const, subject: group, mode: "filter" as const, prefix: "m-", from: new Date(Date.now() - 3.5 * 60_000).toISOString() };
    expect((await previewReset({ db: store.db, actor: operator, input: selection })).count).toBe(3);
    const started = await startReset({ db: store.db, actor: operator, input: { selection, reason: "replay" }, batchSize: 2 });
    expect(await runReset(store.db, started.id)).toMatchObject({ status: "done", affected: 3 });
    expect((await snapshot()).map((r) => r.message_id)).toEqual(["m-4", "m-5"]);
    await undoReset({ db: store.db, actor: operator, input: { batchId: started.id, reason: "undo" } });
    expect(await runUndo(store.db, started.id)).toMatchObject({ status: "undone", restored: 3, skipped: 0 });
    expect(await snapshot()).toEqual(before);
  });
});
