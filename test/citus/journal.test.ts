import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decisionCounts, journalGaps, journalRange, keyTimeline, topCallers, topKeys } from "@/db/queries/journal";
import { appendJournal, recordJournalGaps, type JournalEntry } from "@/db/queries/journal-append";
import { createJournalPartitions, dayStart, listJournalPartitions, partitionName } from "@/db/queries/journal-partitions";
import { runRaw } from "@/db/raw";
import * as schema from "@/db/schema";
import { createTestToken } from "@/test/token.fixture";
import { claimMany } from "@/lib/dedup/window/claim";
import { check } from "@/lib/dedup/last-seen/check";
import { JournalBuffer } from "@/lib/journal/buffer";
import { nowMicros } from "@/lib/journal/clock";
import { journal } from "@/lib/journal/index";
import { JournalWriter } from "@/lib/journal/writer";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";
import { remoteCommandsPool, shardOf, twoPhaseCommits, twoPhaseRecords } from "./remote-commands";

const DAY_MS = 86_400_000;
let store: TestDatabase;
let api: TestApi;
let logged: ReturnType<typeof remoteCommandsPool>;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  logged = remoteCommandsPool(store.url);
});
afterAll(() => logged.pool.end());

const entry = (key: string, atUs: number): JournalEntry => ({
  atUs,
  mode: "last_seen",
  subject: "svc-citus",
  key,
  decision: "new",
  version: 1,
  matchedAt: null,
  hashVersion: 1,
  caller: "producer",
  requestId: null,
  traceId: null,
});

async function shardsOf(keys: readonly string[]): Promise<Set<string>> {
  const { rows } = await store.pool!.query<{ shard: string }>(
    "select distinct get_shard_id_for_distribution_column('journal', k)::text as shard from unnest($1::text[]) as k",
    [keys],
  );
  return new Set(rows.map((row) => row.shard));
}

async function colocationOf(table: string): Promise<number | undefined> {
  const { rows } = await store.pool!.query<{ id: number }>("select colocationid as id from pg_dist_partition where logicalrelid::text = $1", [table]);
  return rows[0]?.id;
}

describe("the decision journal on Citus", () => {
  it("keeps checks, claims and begins made through the API and the engine; each key's timeline reads back", async () => {
    const serviceId = await createService(store.db);
    const group = uniqueId("g");
    const scope = uniqueId("s");
    const token = await createTestToken(store.db, { role: "admin" });
    const headers = { authorization: `Bearer ${token}`, "x-request-id": "req-citus-1" };
    expect((await api.request("POST", "/api/v1/check", { serviceId, messageId: "O-1", payload: 1 }, headers)).status).toBe(200);
    const items = [
      { serviceId, messageId: "O-1", payload: 1 },
      { serviceId, messageId: "O-2", payload: 1 },
      { serviceId, messageId: "O-1", payload: 2 },
    ];
    expect((await api.request("POST", "/api/v1/check/batch", { items }, headers)).status).toBe(200);
    await check(store.db, { serviceId, messageId: "O-2", payload: 1, origin: { caller: "billing-worker", requestId: "job-9" } });
    await claimMany(store.db, [
      { consumerGroup: group, messageId: "P-1", origin: { caller: "payouts-worker" } },
      { consumerGroup: group, messageId: "P-1", origin: { caller: "payouts-worker" } },
    ]);
    for (let i = 0; i < 2; i++) await api.request("POST", `/api/v1/idempotency/${scope}/begin`, { key: "K-1", request: { a: 1 } }, headers);
    await journal.flush(store.db);

    const timeline = async (mode: JournalEntry["mode"], subject: string, key: string) =>
      (await keyTimeline(store.db, { mode, subject, key, limit: 10 })).map((e) => [e.decision, e.caller, e.requestId]);
    const byToken = expect.stringMatching(/^token:/);
    expect(await timeline("last_seen", serviceId, "O-1")).toEqual([
      ["changed", byToken, "req-citus-1"],
      ["duplicate", byToken, "req-citus-1"],
      ["new", byToken, "req-citus-1"],
    ]);
    expect(await timeline("last_seen", serviceId, "O-2")).toEqual([
      ["duplicate", "billing-worker", "job-9"],
      ["new", byToken, "req-citus-1"],
    ]);
    expect(await timeline("window", group, "P-1")).toEqual([
      ["duplicate", "payouts-worker", null],
      ["new", "payouts-worker", null],
    ]);
    expect(await timeline("idempotency", scope, "K-1")).toEqual([
      ["in_progress", byToken, "req-citus-1"],
      ["started", byToken, "req-citus-1"],
    ]);
  });

  it("appends with one call per shard, run on its worker, none committed with two-phase commit", async () => {
    const at = nowMicros();
    const entries = Array.from({ length: 40 }, (_, i) => entry(`A-${i % 20}`, at + i));
    await createJournalPartitions(store.db, [dayStart(at / 1000)]);
    const db = drizzle({ client: logged.pool, schema });
    const before = await twoPhaseRecords(store.pool!);
    logged.commands.length = 0;
    await appendJournal(db, entries);

    expect(twoPhaseCommits(logged.commands)).toEqual([]);
    expect(await twoPhaseRecords(store.pool!)).toBe(before);
    // Each call is the whole statement on one worker: no transaction block, no copy from the coordinator.
    expect(logged.commands.filter((command) => !command.startsWith("SELECT public.weir_journal_append_v2("))).toEqual([]);
    const shards = await shardsOf(entries.map((e) => e.key));
    expect(shards.size).toBeGreaterThan(1);
    expect(logged.commands).toHaveLength(shards.size);
    for (const key of ["A-0", "A-7", "A-19"]) {
      const rows = await keyTimeline(store.db, { mode: "last_seen", subject: "svc-citus", key, limit: 10 });
      const i = Number(key.slice(2));
      expect(rows.map((r) => r.atUs)).toEqual([at + i + 20, at + i]);
    }
  });

  it("records gaps with one router insert per subject, without two-phase commit, adding to what is there", async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const [a, b] = [uniqueId("svc"), uniqueId("svc")];
    const db = drizzle({ client: logged.pool, schema });
    logged.commands.length = 0;
    await recordJournalGaps(db, [
      { kind: "service", subject: a, minute, dropped: 2 },
      { kind: "service", subject: a, minute: minute - 60_000, dropped: 1 },
      { kind: "service", subject: b, minute, dropped: 5 },
    ]);
    await recordJournalGaps(db, [{ kind: "service", subject: a, minute, dropped: 3 }]);
    expect(logged.commands.filter((command) => shardOf(command, "journal_gaps"))).toHaveLength(3);
    expect(twoPhaseCommits(logged.commands)).toEqual([]);
    const range = { fromUs: (minute - 120_000) * 1000, toUs: (minute + 60_000) * 1000, subjectKind: "service" };
    expect((await journalGaps(store.db, { ...range, subject: a })).map((g) => g.dropped)).toEqual([1, 5]);
    expect((await journalGaps(store.db, { ...range, subject: b })).map((g) => g.dropped)).toEqual([5]);
  });
});

describe("the journal's range reads on Citus (every shard: a subject's keys spread)", () => {
  it("pages a subject's range by time and key, counts its decisions, top keys and callers", async () => {
    const at = nowMicros();
    const subject = uniqueId("svc");
    const entries = ["A", "B", "B", "B", "B", "C"].map((key, i) => ({
      ...entry(key, at + i),
      subject,
      decision: i === 1 || i === 5 ? "new" : "duplicate",
      caller: key === "B" ? "retry-storm" : "steady",
    }));
    await createJournalPartitions(store.db, [dayStart(at / 1000)]);
    await appendJournal(store.db, entries);
    const range = { fromUs: at, toUs: at + 100, mode: "last_seen" as const, subject };

    const first = await journalRange(store.db, { ...range, limit: 4 });
    const rest = await journalRange(store.db, { ...range, limit: 4, after: first.at(-1)! });
    expect([...first, ...rest].map((e) => e.atUs)).toEqual(entries.map((e) => e.atUs));
    expect(await decisionCounts(store.db, range)).toEqual([
      { mode: "last_seen", decision: "duplicate", count: 4 },
      { mode: "last_seen", decision: "new", count: 2 },
    ]);
    const spike = await topKeys(store.db, { ...range, decisions: ["duplicate"], limit: 10 });
    expect(spike.map((k) => [k.key, k.count, k.callers])).toEqual([
      ["B", 3, ["retry-storm"]],
      ["A", 1, ["steady"]],
    ]);
    expect(await topCallers(store.db, { ...range, limit: 10 })).toEqual([
      { caller: "retry-storm", count: 4, duplicates: 3 },
      { caller: "steady", count: 2, duplicates: 1 },
    ]);
  });
});

describe("journal partitions on Citus", () => {
  it("makes each day's partition from the coordinator, distributed beside last_seen, once when two nodes race", async () => {
    const day = dayStart(Date.now()) + 3 * DAY_MS;
    const other = new pg.Pool({ connectionString: store.url, max: 1 });
    try {
      await Promise.all([createJournalPartitions(store.db, [day]), createJournalPartitions(drizzle({ client: other, schema }), [day])]);
    } finally {
      await other.end();
    }
    expect(await colocationOf(partitionName(day))).toBe(await colocationOf("last_seen"));
    const { rows } = await store.pool!.query<{ n: number }>(
      "select count(*)::int as n from pg_dist_shard where logicalrelid = $1::regclass",
      [partitionName(day)],
    );
    const { rows: parent } = await store.pool!.query<{ n: number }>("select count(*)::int as n from pg_dist_shard where logicalrelid = 'journal'::regclass");
    expect(rows[0]!.n).toBe(parent[0]!.n);
    // Every shard of it has REPLICA IDENTITY FULL: a shard move by logical replication refuses a table without one.
    const { rows: identities } = await store.pool!.query<{ result: string }>(
      "select result from run_command_on_shards($1, $$select relreplident from pg_class where oid = '%s'::regclass$$)",
      [partitionName(day)],
    );
    expect(identities.map((row) => row.result)).toEqual(identities.map(() => "f"));
    expect(identities).toHaveLength(parent[0]!.n);
  });

  it("writes an entry 10 days old to its own partition, then maintain() drops it on every worker and keeps today's", async () => {
    const writer = new JournalWriter(new JournalBuffer(10), { batchEntries: 100, retentionMs: 7 * DAY_MS });
    const now = Date.now();
    const key = uniqueId("R");
    const oldUs = (now - 10 * DAY_MS) * 1000;
    writer.buffer.push(entry(key, oldUs));
    writer.buffer.push(entry(key, now * 1000));
    expect(await writer.flush(store.db)).toEqual({ written: 2 });
    const oldName = partitionName(dayStart(oldUs / 1000));
    expect(await colocationOf(oldName)).toBe(await colocationOf("last_seen"));
    expect((await keyTimeline(store.db, { mode: "last_seen", subject: "svc-citus", key, limit: 10 })).map((e) => e.atUs)).toEqual([now * 1000, oldUs]);

    expect(await writer.maintain(store.db, now)).toContain(oldName);
    const left = (await listJournalPartitions(store.db)).map((p) => p.name);
    expect(left).not.toContain(oldName);
    expect(left).toEqual(expect.arrayContaining([partitionName(dayStart(now)), partitionName(dayStart(now) + DAY_MS)]));
    expect(await colocationOf(oldName)).toBeUndefined();
    // No shard of the dropped day is left on any worker.
    const [placements] = await runRaw<{ n: number }>(store.db, {
      name: "",
      text: "select count(*)::int as n from run_command_on_workers($1) where result <> '0'",
      values: [`select count(*) from pg_class where relname like '${oldName}%'`],
    });
    expect(placements!.n).toBe(0);
    expect((await keyTimeline(store.db, { mode: "last_seen", subject: "svc-citus", key, limit: 10 })).map((e) => e.atUs)).toEqual([now * 1000]);
  });
});
