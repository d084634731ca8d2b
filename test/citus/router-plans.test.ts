import { beforeAll, describe, expect, it } from "vitest";
import { touchApiToken } from "@/db/queries/auth-tokens";
import { DAYS, rollUp, ROLLUPS } from "@/db/queries/console-stats";
import { journalGaps, keyTimeline } from "@/db/queries/journal";
import { deleteKeyStatement, deleteResetKeyStatement, KEY_TABLES } from "@/db/queries/erase";
import { appendJournal, recordJournalGaps } from "@/db/queries/journal-append";
import { createJournalPartitions, dayStart } from "@/db/queries/journal-partitions";
import { listJournalSettings } from "@/db/queries/journal-settings";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { begin } from "@/lib/dedup/idempotency/begin";
import { complete } from "@/lib/dedup/idempotency/complete";
import { release } from "@/lib/dedup/idempotency/release";
import { check, checkMany } from "@/lib/dedup/last-seen/check";
import { revertCheck, revertStatements } from "@/lib/dedup/last-seen/revert";
import { claim, claimMany } from "@/lib/dedup/window/claim";
import { runCleanup } from "@/lib/dedup/window/cleanup";
import { releaseClaim } from "@/lib/dedup/window/release";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { seedRecords } from "@/lib/dedup/window/test-helpers";
import { runRetention } from "@/lib/erase/retention";
import { setRetention } from "@/lib/erase/set-retention";
import { eraseKeys } from "@/lib/erase/erase-keys";
import { nowMicros } from "@/lib/journal/clock";
import { saveService } from "@/lib/services/save-service";
import { StatsRecorder } from "@/lib/stats/recorder";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";
import { isRouterPlan, planOf, recordingDb, type SentStatement } from "./recording-db";
import { twoPhaseCommitsOf } from "./remote-commands";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

/** Runs `operation` on a recording db and returns what it sent, after asserting every statement is a router plan. */
async function assertRouted(operation: (db: ReturnType<typeof recordingDb>["db"]) => Promise<unknown>): Promise<SentStatement[]> {
  const { db, sent: all } = recordingDb(store.pool!);
  await operation(db);
  // Hot statements are the named ones; the service-settings read (a reference table) is drizzle's.
  // A batch's lookup of its keys' workers (weir_node_of_v1) reads the coordinator's metadata and touches no shard.
  const sent = all.filter((statement) => statement.name !== "" && !statement.text.includes("pg_extension") && statement.name !== "weir_node_of_v1");
  expect(sent.length).toBeGreaterThan(0);
  const notRouted: string[] = [];
  for (const statement of sent) {
    if (!isRouterPlan(await planOf(store.pool!, statement))) notRouted.push(statement.name);
  }
  expect([...new Set(notRouted)]).toEqual([]);
  return sent;
}

describe("every hot statement is a router plan on Citus (one task, one shard)", () => {
  it("single and batch checks, history kept or not", async () => {
    const lean = await createService(store.db);
    const kept = await createService(store.db, { historyDepth: 2 });
    const sent = await assertRouted(async (db) => {
      await check(db, { serviceId: lean, messageId: "m-1", payload: { a: 1 } });
      await checkMany(db, [
        { serviceId: lean, messageId: "m-1", payload: { a: 1 } },
        { serviceId: kept, messageId: "m-2", payload: { a: 1 } },
        { serviceId: kept, messageId: "m-2", payload: { a: 2 } },
        { serviceId: lean, messageId: "m-3", payload: { a: 3 } },
      ]);
    });
    // A single check and a worker with one item of a batch: the one-key function; a worker with more: one call for them.
    expect(sent[0]!.name).toBe("weir_last_seen_decide_one_plain_v6");
    for (const { name } of sent) expect(["weir_last_seen_decide_one_plain_v6", "weir_last_seen_decide_on_shards_v1"]).toContain(name);
  });

  it("a check of a key stored under older hash settings: both asks", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "hv-1", payload: { a: 1, b: 2 } });
    await saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input: { includedPaths: ["/a"] } });
    const sent = await assertRouted(async (db) => {
      expect((await check(db, { serviceId, messageId: "hv-1", payload: { a: 1, b: 2 } })).decision).toBe("duplicate");
    });
    // The plain ask answers `stale`; the key's stored settings are read, then asked with both hashes.
    expect(sent.map((s) => s.name)).toEqual(["weir_last_seen_decide_one_plain_v6", "weir_last_seen_version_v4", "weir_last_seen_decide_one_v6"]);
  });

  it("a check of a key stored under older hash settings whose accepted payload is kept: the read and the move", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    await check(store.db, { serviceId, messageId: "hv-2", payload: { a: 1, b: 2 } });
    await saveService({ db: store.db, actor: SYSTEM_ACTOR, id: serviceId, input: { includedPaths: ["/a"], historyDepth: 2 } });
    const sent = await assertRouted(async (db) => {
      expect((await check(db, { serviceId, messageId: "hv-2", payload: { a: 1, b: 3 } })).decision).toBe("duplicate");
    });
    expect(sent.map((s) => s.name)).toEqual([
      "weir_last_seen_decide_one_plain_v6",
      "weir_last_seen_version_v4",
      "weir_last_seen_kept_payload_v1",
      "weir_last_seen_rebase_v1",
      "weir_last_seen_decide_one_plain_v6",
    ]);
  });

  it("last-seen revert: the compare-and-swap, the history drop and the state read", async () => {
    const serviceId = await createService(store.db);
    await check(store.db, { serviceId, messageId: "rv-1", payload: 1 });
    for (const version of [1, 2]) {
      const { swap, dropHistory, state } = revertStatements({ serviceId, messageId: "rv-1", version });
      for (const statement of [swap, dropHistory, state]) expect(isRouterPlan(await planOf(store.pool!, statement))).toBe(true);
    }
  });

  it("single and batch claims", async () => {
    const sent = await assertRouted(async (db) => {
      await claim(db, { consumerGroup: "g-route", messageId: "c-1" });
      await claimMany(db, [
        { consumerGroup: "g-route", messageId: "c-1" },
        { consumerGroup: "g-route", messageId: "c-2" },
        { consumerGroup: "g-other", messageId: "c-1" },
      ]);
    });
    expect(sent[0]!.name).toBe("weir_window_claim_one_v4");
    for (const { name } of sent) expect(["weir_window_claim_one_v4", "weir_window_claim_on_node_v1"]).toContain(name);
  });

  it("idempotency begin, complete and release", async () => {
    const requestHash = "cd".repeat(32);
    const sent = await assertRouted(async (db) => {
      await begin(db, { scope: "s-route", key: "k-1", requestHash });
      await complete(db, { scope: "s-route", key: "k-1", requestHash, attempt: 1, response: { status: 200, body: "ok", headers: {} } });
      await begin(db, { scope: "s-route", key: "k-2", requestHash });
      await release(db, { scope: "s-route", key: "k-2", requestHash, attempt: 1 });
      await begin(db, { scope: "s-route", key: "k-2", requestHash });
    });
    const names = sent.map((s) => s.name);
    // Begin goes through the one-key function on Citus, never the split statement.
    expect(names.filter((name) => name.startsWith("weir_idempotency_begin"))).toEqual([
      "weir_idempotency_begin_one_v2",
      "weir_idempotency_begin_one_v2",
      "weir_idempotency_begin_one_v2",
    ]);
  });
});

describe("an erasure of one key on Citus", () => {
  it("removes the key from each table with one routed statement per table", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    await check(store.db, { serviceId, messageId: "gdpr-1", payload: { a: 1 } });
    await check(store.db, { serviceId, messageId: "gdpr-1", payload: { a: 2 } });
    const statements = (["service", "group", "scope"] as const).flatMap((kind) => KEY_TABLES[kind].map((table) => deleteKeyStatement(table, serviceId, "gdpr-1")));
    statements.push(deleteResetKeyStatement([1, 2], "gdpr-1"));
    for (const statement of statements) expect(isRouterPlan(await planOf(store.pool!, statement)), statement.name).toBe(true);
    const done = await eraseKeys({ db: store.db, actor: SYSTEM_ACTOR, input: { kind: "service", subject: serviceId, key: "gdpr-1", reason: "GDPR", confirmation: "gdpr-1" } });
    expect(done.counts).toMatchObject({ last_seen: 1, payload_versions: 2 });
  });
});

describe("the journal's statements on Citus", () => {
  const entry = (key: string, atUs: number) => ({
    atUs,
    mode: "last_seen" as const,
    subject: "svc-journal",
    key,
    decision: "duplicate",
    version: 1,
    matchedAt: new Date(),
    hashVersion: 1,
    caller: "producer",
    requestId: "req-1",
    traceId: null,
  });

  it("a key's timeline, first page and next, reads one shard", async () => {
    const at = nowMicros();
    await createJournalPartitions(store.db, [dayStart(at / 1000)]);
    await appendJournal(store.db, [entry("T-1", at), entry("T-1", at + 1), entry("T-2", at + 2)]);
    const { db, sent } = recordingDb(store.pool!);
    const first = await keyTimeline(db, { mode: "last_seen", subject: "svc-journal", key: "T-1", limit: 1 });
    const next = await keyTimeline(db, { mode: "last_seen", subject: "svc-journal", key: "T-1", limit: 1, before: first[0]! });
    expect([...first, ...next].map((e) => e.atUs)).toEqual([at + 1, at]);
    const reads = sent.filter((statement) => statement.text.includes("from journal where mode"));
    expect(reads).toHaveLength(2);
    for (const statement of reads) expect(isRouterPlan(await planOf(store.pool!, statement))).toBe(true);
  });

  it("appends: one call per shard; gaps: one insert per subject; the levels read", async () => {
    const at = nowMicros();
    await createJournalPartitions(store.db, [dayStart(at / 1000)]);
    const { db, sent } = recordingDb(store.pool!);
    await appendJournal(db, Array.from({ length: 30 }, (_, i) => entry(`J-${i}`, at + i)));
    const minute = Math.floor(at / 60_000_000) * 60_000;
    await recordJournalGaps(db, [
      { kind: "service", subject: "svc-journal", minute, dropped: 1 },
      { kind: "group", subject: "g-journal", minute, dropped: 2 },
    ]);
    await journalGaps(db, { fromUs: at - 60_000_000, toUs: at + 60_000_000, subjectKind: "service", subject: "svc-journal" });
    await listJournalSettings(db);
    const inserts = sent.filter((statement) => statement.name === "weir_journal_append_shard_v2");
    const gaps = sent.filter((statement) => statement.text.includes("insert into journal_gaps"));
    const reads = sent.filter((statement) => /from "?journal_(gaps|settings)"?(\s|$)/.test(statement.text));
    expect(inserts.length).toBeGreaterThan(1);
    expect(gaps).toHaveLength(2);
    expect(reads).toHaveLength(2);
    for (const statement of [...inserts, ...gaps, ...reads]) expect(isRouterPlan(await planOf(store.pool!, statement))).toBe(true);
  });
});

describe("decisions on Citus are the rule's, in order", () => {
  it("A A B A B for one key: new, duplicate, changed, changed, changed; batch keeps the order of a key's items", async () => {
    const serviceId = await createService(store.db);
    const payloads = [{ v: "A" }, { v: "A" }, { v: "B" }, { v: "A" }, { v: "B" }];
    const one = [];
    for (const payload of payloads) one.push((await check(store.db, { serviceId, messageId: "seq", payload })).decision);
    expect(one).toEqual(["new", "duplicate", "changed", "changed", "changed"]);
    const batch = await checkMany(store.db, payloads.map((payload) => ({ serviceId, messageId: "seq-batch", payload })));
    expect(batch.map((o) => [o.decision, o.version])).toEqual([["new", 1], ["duplicate", 1], ["changed", 2], ["changed", 3], ["changed", 4]]);
  });

  it("a claim is new once per window, then duplicate", async () => {
    const outcomes = await claimMany(store.db, [
      { consumerGroup: "g-seq", messageId: "x" },
      { consumerGroup: "g-seq", messageId: "x" },
      { consumerGroup: "g-seq", messageId: "y" },
    ]);
    expect(outcomes.map((o) => o.decision)).toEqual(["new", "duplicate", "new"]);
  });
});

describe("nothing that runs per decision or every few seconds commits with two-phase commit", () => {
  const noTwoPhase = async (operation: Parameters<typeof twoPhaseCommitsOf>[2]) =>
    expect(await twoPhaseCommitsOf(store.url, store.pool!, operation)).toEqual({ prepared: [], records: 0 });

  it("checks, claims and idempotency keys, one at a time and in batches", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    const requestHash = "ef".repeat(32);
    await noTwoPhase(async (db) => {
      await check(db, { serviceId, messageId: "tp-1", payload: 1 });
      await checkMany(db, Array.from({ length: 20 }, (_, i) => ({ serviceId, messageId: `tp-${i}`, payload: 2 })));
      await claim(db, { consumerGroup: "g-tp", messageId: "c-1" });
      await claimMany(db, Array.from({ length: 20 }, (_, i) => ({ consumerGroup: "g-tp", messageId: `c-${i}` })));
      await begin(db, { scope: "s-tp", key: "k-1", requestHash });
      await complete(db, { scope: "s-tp", key: "k-1", requestHash, attempt: 1, response: { status: 200, body: "ok", headers: {} } });
      await begin(db, { scope: "s-tp", key: "k-2", requestHash });
      await release(db, { scope: "s-tp", key: "k-2", requestHash, attempt: 1 });
      await releaseClaim(db, { consumerGroup: "g-tp", messageId: "c-1" });
    });
  });

  it("the stats flush (every 2 s on every node): one call per shard", async () => {
    const recorder = new StatsRecorder();
    for (let i = 0; i < 40; i++) recorder.record(i % 3 === 0 ? "group" : "service", `tp-subject-${i}`, "new");
    await noTwoPhase(async (db) => expect(await recorder.flush(db)).toBe(40));
  });

  it("the rollups of closed minutes into quarters, hours and days: one statement per shard, then the mark", async () => {
    const recorder = new StatsRecorder();
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    for (let i = 0; i < 30; i++) recorder.record("service", `tp-rollup-${i % 10}`, "duplicate", 1, twoHoursAgo + i * 60_000);
    await recorder.flush(store.db);
    await noTwoPhase(async (db) => {
      for (const rollup of ROLLUPS) {
        // A day closes 10 minutes after midnight UTC: its mark may still stand before minutes 2 hours old.
        const closedBefore = rollup === DAYS ? twoHoursAgo - 86_400_000 : twoHoursAgo;
        expect((await rollUp(db, rollup, 48))!.getTime()).toBeGreaterThan(closedBefore);
      }
    });
    const { rows } = await store.pool!.query("select sum(duplicates)::int as n from stats_hour where subject like 'tp-rollup-%'");
    expect(rows).toEqual([{ n: 30 }]);
  });

  it("a revert by a service token: the rate limit, the swap and its audit row", async () => {
    const serviceId = await createService(store.db);
    const token = { id: "token:tok_tp", role: "service" as const, via: "token" as const };
    const { version } = await check(store.db, { serviceId, messageId: "tp-revert", payload: 1 });
    await noTwoPhase((db) => revertCheck({ db, actor: token, input: { serviceId, messageId: "tp-revert", version } }));
  });

  it("window cleanup (every minute): each batch of a group's expired records and of expired keys deleted shard by shard", async () => {
    const group = uniqueId("g-tp-clean");
    await setGroupTtl(store.db, { consumerGroup: group, ttlSeconds: 60, graceSeconds: 0, reason: "test", actor: SYSTEM_ACTOR });
    await seedRecords(store.db, group, 25, 120, "old");
    await seedRecords(store.db, group, 3, 10, "live");
    const scope = uniqueId("s-tp-clean");
    for (const key of ["k-1", "k-2", "k-3", "k-4"]) await begin(store.db, { scope, key, requestHash: "ab".repeat(32) });
    await store.pool!.query("update idempotency_keys set expires_at = '2000-01-01', locked_until = '1999-12-31' where scope = $1 and key <> 'k-4'", [scope]);
    await noTwoPhase(async (db) => expect(await runCleanup(db, { batchSize: 10, duty: 1 })).toMatchObject({ windowRecordsRemoved: 25, idempotencyKeysRemoved: 3 }));
    const { rows } = await store.pool!.query("select message_id from window_records where consumer_group = $1 order by 1", [group]);
    expect(rows.map((row: { message_id: string }) => row.message_id)).toEqual(["live-1", "live-2", "live-3"]);
  });

  it("retention (every minute): each batch of old payload versions and stored responses deleted shard by shard", async () => {
    const serviceId = await createService(store.db, { historyDepth: 5 });
    for (let key = 0; key < 12; key++) for (const v of [1, 2]) await check(store.db, { serviceId, messageId: `tp-ret-${key}`, payload: { v } });
    await store.pool!.query("update payload_versions set recorded_at = '2000-01-01' where service_id = $1 and version = 1", [serviceId]);
    const scope = uniqueId("s-tp-ret");
    const requestHash = "ba".repeat(32);
    for (const key of ["old-1", "old-2", "old-3", "new"]) {
      await begin(store.db, { scope, key, requestHash });
      await complete(store.db, { scope, key, requestHash, attempt: 1, response: { status: 200, body: "ok", headers: {} } });
    }
    await store.pool!.query("update idempotency_keys set completed_at = '2000-01-01' where scope = $1 and key like 'old-%'", [scope]);
    await setRetention({ db: store.db, actor: SYSTEM_ACTOR, input: { kind: "service", subject: serviceId, maxAgeSeconds: 86_400, reason: "test" } });
    await setRetention({ db: store.db, actor: SYSTEM_ACTOR, input: { kind: "scope", subject: scope, maxAgeSeconds: 3_600, reason: "test" } });
    // Per-minute stats past WEIR_STATS_MINUTE_RETENTION (35 days), of subjects on every shard, once the rollups have run.
    const subjects = Array.from({ length: 8 }, (_, i) => uniqueId(`tp-ret-stats-${i}`));
    await store.pool!.query(
      `insert into stats_minute (subject_kind, subject, bucket, checks, new)
       select 'service', s, date_trunc('minute', now()) - a, 1, 1 from unnest($1::text[]) s, unnest(array[interval '40 days', interval '1 hour']) a`,
      [subjects],
    );
    await store.pool!.query(
      `insert into stats_rollup (name, rolled_until) select unnest(array['stats_quarter', 'stats_hour', 'stats_day']), date_trunc('day', now())
       on conflict (name) do nothing`,
    );
    await noTwoPhase(async (db) =>
      expect(await runRetention(db, { batchSize: 5 })).toMatchObject({ payloadVersionsRemoved: 12, responsesRemoved: 3, statsMinutesRemoved: 8, complete: true }),
    );
    const { rows } = await store.pool!.query("select count(*)::int as n from payload_versions where service_id = $1", [serviceId]);
    expect(rows).toEqual([{ n: 12 }]);
    const minutes = await store.pool!.query("select count(*)::int as n from stats_minute where subject = any($1::text[])", [subjects]);
    expect(minutes.rows).toEqual([{ n: 8 }]);
  });

  it("a token's last-use stamp (once a minute per token and node): the first, a guarded one and a later one", async () => {
    const id = uniqueId("tok_tp_touch");
    await noTwoPhase(async (db) => {
      await touchApiToken(db, id);
      await touchApiToken(db, id);
    });
    await store.pool!.query("update api_token_uses set last_used_at = '2000-01-01' where token_id = $1", [id]);
    await noTwoPhase((db) => touchApiToken(db, id));
    const { rows } = await store.pool!.query("select last_used_at > now() - interval '1 minute' as fresh from api_token_uses where token_id = $1", [id]);
    expect(rows).toEqual([{ fresh: true }]);
  });
});
