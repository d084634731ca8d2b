import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditBy } from "@/db/queries/audit";
import { appendJournal, type JournalEntry } from "@/db/queries/journal-append";
import { createJournalPartitions, dayStart } from "@/db/queries/journal-partitions";
import type { DbOrTx } from "@/db/types";
import { begin } from "@/lib/dedup/idempotency/begin";
import { complete } from "@/lib/dedup/idempotency/complete";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { ConflictError, ForbiddenError, UnprocessableError } from "@/lib/errors";
import { runReset } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { eraseKeys, keyHashOf } from "./erase-keys";
import { previewErase } from "./preview-erase";

const operator = { id: "ops@example.com", role: "operator" as const };
const requestHash = "ab".repeat(32);
let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const tag = () => randomBytes(5).toString("hex");

/** Every row of every weir table (journal partitions included) whose any column, as text, contains `needle`. */
async function tablesMentioning(db: DbOrTx, needle: string): Promise<string[]> {
  const columns = (
    await db.execute(sql`select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by 1, 2`)
  ).rows as { table_name: string; column_name: string }[];
  expect(columns.some((c) => c.table_name.startsWith("journal_p"))).toBe(true);
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [row] = (await db.execute(sql.raw(`select count(*)::int as n from "${table}" where strpos("${column}"::text, '${needle}') > 0`))).rows as { n: number }[];
    if (row!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

const journalEntry = (mode: JournalEntry["mode"], subject: string, key: string): JournalEntry => ({
  atUs: Date.now() * 1000,
  mode,
  subject,
  key,
  decision: "new",
  version: 1,
  matchedAt: null,
  hashVersion: null,
  caller: "token:t1",
  requestId: `req-${key}`,
  traceId: null,
});

/** One key kept everywhere weir keeps keys: state, history, a reset copy and id list, a stored response, claims, journal, audit. */
async function seed(key: string, marker: string, sibling: string) {
  const serviceId = await createService(store.db, { historyDepth: 3 });
  const group = `grp-${tag()}`;
  const scope = `scope-${tag()}`;
  await check(store.db, { serviceId, messageId: key, payload: { email: marker, v: 1 } });
  await check(store.db, { serviceId, messageId: key, payload: { email: marker, v: 2 } });
  await check(store.db, { serviceId, messageId: sibling, payload: { v: 1 } });
  const reset = await startReset({
    db: store.db,
    actor: operator,
    input: { selection: { kind: "last_seen", subject: serviceId, mode: "list", messageIds: `${key}\n${sibling}` }, reason: `replay of ${key}` },
  });
  await runReset(store.db, reset.id);
  await check(store.db, { serviceId, messageId: key, payload: { email: marker, v: 3 } });
  await check(store.db, { serviceId, messageId: sibling, payload: { v: 2 } });
  await claim(store.db, { consumerGroup: group, messageId: key });
  await claim(store.db, { consumerGroup: group, messageId: sibling });
  await begin(store.db, { scope, key, requestHash });
  await complete(store.db, { scope, key, requestHash, attempt: 1, response: { status: 201, body: `{"email":"${marker}"}`, headers: {} } });
  await begin(store.db, { scope, key: sibling, requestHash });
  await auditBy(store.db, operator, { action: "idempotency_key.delete", target: `idempotency_scope:${scope}`, details: { key } });
  await createJournalPartitions(store.db, [dayStart(Date.now())]);
  await appendJournal(store.db, [
    journalEntry("last_seen", serviceId, key),
    journalEntry("window", group, key),
    journalEntry("idempotency", scope, key),
    journalEntry("last_seen", serviceId, sibling),
  ]);
  return { serviceId, group, scope };
}

describe("erasure", () => {
  it("one key, in a service, a group and a scope: previewed, confirmed, then no table mentions the key or its payload", async () => {
    const key = `erase-me-${tag()}@example.com`;
    const marker = `pii-${tag()}`;
    const sibling = `keep-${tag()}`;
    const { serviceId, group, scope } = await seed(key, marker, sibling);
    expect((await tablesMentioning(store.db, key)).length).toBeGreaterThan(5);

    const preview = await previewErase({ db: store.db, actor: operator, input: { kind: "service", subject: serviceId, key } });
    expect(preview.counts).toMatchObject({ last_seen: 1, "journal:last_seen": 1, reset_rows: 1, reset_batches: 1, audit_log: 2 });
    expect(preview.counts.payload_versions).toBeGreaterThanOrEqual(1);
    expect(preview.confirmWord).toBe(key);

    const input = { kind: "service" as const, subject: serviceId, key, reason: `GDPR request for ${key}` };
    await expect(eraseKeys({ db: store.db, actor: operator, input })).rejects.toBeInstanceOf(UnprocessableError);
    await expect(eraseKeys({ db: store.db, actor: operator, input: { ...input, confirmation: serviceId } })).rejects.toBeInstanceOf(UnprocessableError);
    const scoped = { id: "token:x", role: "operator" as const, scopes: { services: ["other"], consumerGroups: ["*"], idempotencyScopes: ["*"] } };
    await expect(eraseKeys({ db: store.db, actor: scoped, input: { ...input, confirmation: key } })).rejects.toBeInstanceOf(ForbiddenError);

    const done = await eraseKeys({ db: store.db, actor: operator, input: { ...input, confirmation: key } });
    expect(done.keyHash).toBe(keyHashOf(key));
    expect(done.counts).toEqual(preview.counts);
    await eraseKeys({ db: store.db, actor: operator, input: { kind: "group", subject: group, key, reason: "GDPR", confirmation: key } });
    const scopeDone = await eraseKeys({ db: store.db, actor: operator, input: { kind: "scope", subject: scope, key, reason: "GDPR", confirmation: key } });
    expect(scopeDone.counts).toMatchObject({ idempotency_keys: 1, "journal:idempotency": 1, audit_log: 1 });

    expect(await tablesMentioning(store.db, key)).toEqual([]);
    expect(await tablesMentioning(store.db, marker)).toEqual([]);
    // What is left: the erasure happened (subject, counts, actor, reason), the key only as its hash.
    const audit = (
      await store.db.execute(sql`select actor, reason, details from audit_log where action = 'erase.key' and target = ${`service:${serviceId}`}`)
    ).rows as { actor: string; reason: string; details: { keyHash: string; counts: Record<string, number> } }[];
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: operator.id, reason: `GDPR request for ${keyHashOf(key)}`, details: { keyHash: keyHashOf(key), counts: done.counts } });
    // The audit stays append-only: only the redaction functions may put a hash in place of a key.
    const refusal = (work: Promise<unknown>) => work.then(() => "allowed", (err: Error) => String((err.cause as Error | undefined)?.message ?? err.message));
    expect(await refusal(store.db.execute(sql`update audit_log set reason = 'rewritten' where action = 'erase.key'`))).toMatch(/append-only/);
    const sneaky = store.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('weir.audit_redaction', 'on', true)`);
      await tx.execute(sql`update audit_log set action = 'rewritten' where action = 'erase.key'`);
    });
    expect(await refusal(sneaky)).toMatch(/append-only/);
    // The other key of each subject is untouched.
    expect((await tablesMentioning(store.db, sibling)).sort()).toEqual(
      expect.arrayContaining(["idempotency_keys.key", "journal.key", "last_seen.message_id", "payload_versions.message_id", "reset_rows.message_id", "window_records.message_id"]),
    );
  });

  it("every key of a service, in bounded batches: state, history, reset copies, journal; other services keep theirs", async () => {
    const marker = `pii-${tag()}`;
    const keys = Array.from({ length: 7 }, (_, i) => `cust-${tag()}-${i}`);
    const serviceId = await createService(store.db, { historyDepth: 2 });
    const other = await createService(store.db, { historyDepth: 2 });
    for (const key of keys) {
      await check(store.db, { serviceId, messageId: key, payload: { marker, v: 1 } });
      await check(store.db, { serviceId, messageId: key, payload: { marker, v: 2 } });
    }
    await check(store.db, { serviceId: other, messageId: keys[0]!, payload: { v: 1 } });
    const reset = await startReset({ db: store.db, actor: operator, input: { selection: { kind: "last_seen", subject: serviceId, mode: "key", messageId: keys[1]! }, reason: "replay" } });
    await runReset(store.db, reset.id);
    await auditBy(store.db, operator, { action: "last_seen.revert", target: `service:${serviceId}`, details: { messageId: keys[2] } });
    await createJournalPartitions(store.db, [dayStart(Date.now())]);
    await appendJournal(store.db, keys.map((key) => journalEntry("last_seen", serviceId, key)));

    const input = { kind: "service" as const, subject: serviceId, reason: "customer left" };
    const preview = await previewErase({ db: store.db, actor: operator, input });
    expect(preview).toMatchObject({ key: null, confirmWord: serviceId, counts: { last_seen: 6, payload_versions: 12, reset_rows: 1, "journal:last_seen": 7 } });
    const done = await eraseKeys({ db: store.db, actor: operator, input: { ...input, confirmation: serviceId }, batchSize: 2 });
    expect(done.counts).toMatchObject({ last_seen: 6, payload_versions: 12, reset_rows: 1, "journal:last_seen": 7, reset_batches: 1 });
    expect(done.counts.audit_log).toBeGreaterThanOrEqual(2);
    for (const key of keys.slice(1)) expect(await tablesMentioning(store.db, key)).toEqual([]);
    expect(await tablesMentioning(store.db, marker)).toEqual([]);
    expect(await tablesMentioning(store.db, keys[0]!)).toEqual(["last_seen.message_id", "payload_versions.message_id"]);
    const [batch] = (await store.db.execute(sql`select status from reset_batches where id = ${reset.id}`)).rows as { status: string }[];
    expect(batch!.status).toBe("expired");
  });

  it("refuses while a reset of the subject is moving rows", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "k-1", payload: { v: 1 } });
    await startReset({ db: store.db, actor: operator, input: { selection: { kind: "last_seen", subject: serviceId, mode: "key", messageId: "k-1" }, reason: "replay" } });
    await expect(
      eraseKeys({ db: store.db, actor: operator, input: { kind: "service", subject: serviceId, key: "k-1", reason: "GDPR", confirmation: "k-1" } }),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});
