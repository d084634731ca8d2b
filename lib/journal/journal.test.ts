import { beforeAll, describe, expect, it } from "vitest";
import { journalGaps, journalRange, keyTimeline, topKeys } from "@/db/queries/journal";
import { createJournalPartitions, dayStart, listJournalPartitions, partitionName } from "@/db/queries/journal-partitions";
import { upsertJournalSetting } from "@/db/queries/journal-settings";
import type { Actor } from "@/lib/auth/actor";
import { runRaw } from "@/db/raw";
import { createTestToken } from "@/test/token.fixture";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { begin } from "@/lib/dedup/idempotency/begin";
import { complete } from "@/lib/dedup/idempotency/complete";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { JournalBuffer } from "./buffer";
import { nowMicros } from "./clock";
import { journal } from "./index";
import { setJournalLevel } from "./set-level";
import { JournalWriter } from "./writer";
import { journalConfigFromEnv } from "./config";

let store: TestDatabase;
let api: TestApi;
const HOUR_US = 3_600_000_000;
const around = () => ({ fromUs: nowMicros() - HOUR_US, toUs: nowMicros() + HOUR_US });

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

describe("the decision journal", () => {
  it("keeps every answer of a library-mode check with its caller, version and accepted time; a duplicate writes no state", async () => {
    const serviceId = await createService(store.db);
    const origin = { caller: "billing-worker", requestId: "job-17" };
    const first = await check(store.db, { serviceId, messageId: "O-123", payload: { amount: 5 }, origin });
    await check(store.db, { serviceId, messageId: "O-123", payload: { amount: 5 }, origin });
    await check(store.db, { serviceId, messageId: "O-123", payload: { amount: 6 }, origin });
    await journal.flush(store.db);

    const timeline = await keyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "O-123", limit: 10 });
    expect(timeline.map((e) => e.decision)).toEqual(["changed", "duplicate", "new"]);
    expect(timeline[1]).toMatchObject({ version: 1, caller: "billing-worker", requestId: "job-17", hashVersion: 1 });
    // The duplicate names when the version it matched was accepted: the first check's time.
    expect(new Date(timeline[1]!.matchedAt!).getTime()).toBe(first.acceptedAt.getTime());
    expect(timeline[0]!.atUs).toBeGreaterThan(timeline[1]!.atUs);
  });

  it("names the API token, the X-Request-Id sent and the traceparent's trace id, in every mode", async () => {
    const serviceId = await createService(store.db);
    const group = uniqueId("payouts");
    const scope = uniqueId("charges");
    const token = await createTestToken(store.db, { role: "admin" });
    const headers = {
      authorization: `Bearer ${token}`,
      "x-request-id": "req-incident-1",
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    };
    const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "M-1", payload: 1 }, headers);
    expect(sent.headers.get("x-request-id")).toBe("req-incident-1");
    await api.request("POST", "/api/v1/check/batch", { items: [{ serviceId, messageId: "M-1", payload: 1 }] }, headers);
    await api.request("POST", "/api/v1/claim", { consumerGroup: group, messageId: "P-1" }, headers);
    await api.request("POST", "/api/v1/claim", { consumerGroup: group, messageId: "P-1" }, headers);
    const begun = await api.request("POST", `/api/v1/idempotency/${scope}/begin`, { key: "K-1", request: { a: 1 } }, headers);
    expect(begun.status).toBe(201);
    await journal.flush(store.db);

    const checks = await keyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "M-1", limit: 10 });
    expect(checks.map((e) => e.decision)).toEqual(["duplicate", "new"]);
    for (const entry of checks) {
      expect(entry).toMatchObject({ requestId: "req-incident-1", traceId: "4bf92f3577b34da6a3ce929d0e0e4736" });
      expect(entry.caller).toMatch(/^token:/);
    }
    const claims = await keyTimeline(store.db, { mode: "window", subject: group, key: "P-1", limit: 10 });
    expect(claims.map((e) => e.decision)).toEqual(["duplicate", "new"]);
    expect(claims[0]!.matchedAt).toBe(claims[1]!.matchedAt);
    const begins = await keyTimeline(store.db, { mode: "idempotency", subject: scope, key: "K-1", limit: 10 });
    expect(begins).toMatchObject([{ decision: "started", version: 1 }]);
  });

  it("generates a request id when none is sent, and journals that one", async () => {
    const serviceId = await createService(store.db);
    const token = await createTestToken(store.db, { role: "admin" });
    const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "G-1", payload: 1 }, { authorization: `Bearer ${token}` });
    const requestId = sent.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await journal.flush(store.db);
    const [entry] = await keyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "G-1", limit: 10 });
    expect(entry!.requestId).toBe(requestId);
  });

  it("journals completes, releases and reverts as answers of their own", async () => {
    const scope = uniqueId("charges");
    const ref = { scope, key: "K-2", requestHash: "a".repeat(64) };
    const started = await begin(store.db, ref);
    if (started.outcome !== "started") throw new Error("expected started");
    await complete(store.db, { ...ref, attempt: started.attempt, response: { status: 200, body: "{}", headers: {} } });
    await begin(store.db, ref);
    await journal.flush(store.db);
    const timeline = await keyTimeline(store.db, { mode: "idempotency", subject: scope, key: "K-2", limit: 10 });
    expect(timeline.map((e) => e.decision)).toEqual(["completed", "stored", "started"]);
  });

  it("switches per subject: off keeps nothing, changes_and_duplicates leaves out first acceptances", async () => {
    const quiet = await createService(store.db);
    const lean = await createService(store.db);
    await upsertJournalSetting(store.db, "service", quiet, "off");
    await upsertJournalSetting(store.db, "service", lean, "changes_and_duplicates");
    await journal.levels.reload(store.db);
    for (const serviceId of [quiet, lean]) {
      for (const payload of [1, 1, 2]) await check(store.db, { serviceId, messageId: "S-1", payload });
    }
    const group = uniqueId("g");
    await upsertJournalSetting(store.db, "group", group, "changes_and_duplicates");
    await journal.levels.reload(store.db);
    await claim(store.db, { consumerGroup: group, messageId: "C-1" });
    await claim(store.db, { consumerGroup: group, messageId: "C-1" });
    await journal.flush(store.db);

    expect(await keyTimeline(store.db, { mode: "last_seen", subject: quiet, key: "S-1", limit: 10 })).toEqual([]);
    const kept = await keyTimeline(store.db, { mode: "last_seen", subject: lean, key: "S-1", limit: 10 });
    expect(kept.map((e) => e.decision)).toEqual(["changed", "duplicate"]);
    const claims = await keyTimeline(store.db, { mode: "window", subject: group, key: "C-1", limit: 10 });
    expect(claims.map((e) => e.decision)).toEqual(["duplicate"]);
  });

  it("a level change keeps the answers made before it, even those not yet written, and leaves out the ones after", async () => {
    const serviceId = await createService(store.db);
    const operator: Actor = { id: "ops@weir.test", role: "operator", via: "session", signedInAt: new Date() };
    await check(store.db, { serviceId, messageId: "B-1", payload: 1 });
    // Still in the buffer when the level goes off.
    await setJournalLevel({ db: store.db, actor: operator, input: { kind: "service", subject: serviceId, level: "off", reason: "replay" } });
    await check(store.db, { serviceId, messageId: "B-1", payload: 1 });
    await check(store.db, { serviceId, messageId: "B-1", payload: 2 });
    await journal.flush(store.db);

    const timeline = await keyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "B-1", limit: 10 });
    expect(timeline.map((e) => e.decision)).toEqual(["new"]);
    const metrics = await (await fetch(`${api.url}/api/metrics`)).text();
    expect(Number(/^weir_journal_skipped_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
  });

  it("pages a subject's range by time and key, and counts a spike's duplicated keys", async () => {
    const serviceId = await createService(store.db);
    for (const key of ["A", "B", "C"]) {
      for (let i = 0; i < (key === "B" ? 4 : 2); i++) await check(store.db, { serviceId, messageId: key, payload: 1, origin: { caller: `producer-${key}` } });
    }
    await journal.flush(store.db);
    const range = { ...around(), mode: "last_seen" as const, subject: serviceId };
    const first = await journalRange(store.db, { ...range, limit: 5 });
    const rest = await journalRange(store.db, { ...range, limit: 5, after: first.at(-1)! });
    expect([...first, ...rest]).toHaveLength(8);
    expect(new Set([...first, ...rest].map((e) => e.atUs)).size).toBe(8);

    const spike = await topKeys(store.db, { ...range, decisions: ["duplicate"], limit: 10 });
    expect(spike[0]).toMatchObject({ key: "B", count: 3, callers: ["producer-B"] });
    expect(spike.map((k) => k.key)).toEqual(["B", "A", "C"]);
  });
});

describe("a full journal buffer", () => {
  it("never holds up a check: the answer comes, the entry is dropped and counted in /api/metrics", async () => {
    const serviceId = await createService(store.db);
    const token = await createTestToken(store.db, { role: "admin" });
    const dropped = async () => {
      const text = await (await fetch(`${api.url}/api/metrics`)).text();
      return Number(/^weir_journal_dropped_total (\d+)/m.exec(text)?.[1]);
    };
    const before = await dropped();
    const capacity = journal.buffer.capacity;
    journal.buffer.capacity = journal.buffer.size;
    try {
      const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "FULL", payload: 1 }, { authorization: `Bearer ${token}` });
      expect(sent.body.decision).toBe("new");
    } finally {
      journal.buffer.capacity = capacity;
    }
    expect(await dropped()).toBe(before + 1);
    await journal.flush(store.db);
    const gaps = await journalGaps(store.db, { ...around(), subjectKind: "service", subject: serviceId });
    expect(gaps.map((g) => g.dropped)).toEqual([1]);
  });

  it("answers every decision, counts the drops and names the gap's subject and minute", async () => {
    const small = new JournalWriter(new JournalBuffer(3), { batchEntries: 100, retentionMs: 7 * 86_400_000 });
    const serviceId = await createService(store.db);
    const at = nowMicros();
    for (let i = 0; i < 5; i++) {
      small.buffer.push({ atUs: at + i, mode: "last_seen", subject: serviceId, key: `K-${i}`, decision: "new", version: 1, matchedAt: null, hashVersion: 1, caller: null, requestId: null, traceId: null });
    }
    expect(small.buffer.droppedTotal).toBe(2);
    expect(await small.flush(store.db)).toEqual({ written: 3 });
    const gaps = await journalGaps(store.db, { ...around(), subjectKind: "service", subject: serviceId });
    expect(gaps).toEqual([{ subjectKind: "service", subject: serviceId, minute: expect.any(String), dropped: 2 }]);
    expect(new Date(gaps[0]!.minute).getTime()).toBe(Math.floor(at / 60_000_000) * 60_000);
  });

  it("keeps a batch whose write failed for the next flush", async () => {
    const writer = new JournalWriter(new JournalBuffer(10), { batchEntries: 100, retentionMs: 7 * 86_400_000 });
    writer.buffer.push({ atUs: nowMicros(), mode: "window", subject: uniqueId("g"), key: "X", decision: "new", version: null, matchedAt: null, hashVersion: null, caller: null, requestId: null, traceId: null });
    const broken = await createTestDatabase();
    await broken.close();
    await expect(writer.flush(broken.db)).rejects.toThrow();
    expect(writer.buffer.size).toBe(1);
    expect(await writer.flush(store.db)).toEqual({ written: 1 });
  });
});

describe("a started journal writer", () => {
  const entry = (subject: string, i: number) =>
    ({ atUs: nowMicros(), mode: "window", subject, key: `B-${i}`, decision: "new", version: null, matchedAt: null, hashVersion: null, caller: null, requestId: null, traceId: null }) as const;

  it("writes a batch as soon as it is full, not at the next tick, and leaves a partial batch for the tick", async () => {
    const writer = new JournalWriter(new JournalBuffer(100), { batchEntries: 5, retentionMs: 7 * 86_400_000 });
    const subject = uniqueId("eager");
    writer.start(async () => store.db, 3_600_000);
    try {
      for (let i = 0; i < 4; i++) writer.add(entry(subject, i));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(writer.buffer.size).toBe(4);
      writer.add(entry(subject, 4));
      await expect.poll(() => writer.buffer.writtenTotal, { timeout: 5_000 }).toBe(5);
      const written = await journalRange(store.db, { ...around(), mode: "window", subject, limit: 10 });
      expect(written.map((e) => e.key).sort()).toEqual(["B-0", "B-1", "B-2", "B-3", "B-4"]);
    } finally {
      writer.stop();
    }
  });

  it("drains at shutdown what arrived while a batch was being written", async () => {
    const writer = new JournalWriter(new JournalBuffer(100), { batchEntries: 2, retentionMs: 7 * 86_400_000 });
    const subject = uniqueId("drain");
    writer.start(async () => store.db, 3_600_000);
    writer.add(entry(subject, 0));
    writer.add(entry(subject, 1));
    // The full batch's pass is under way (it waits on the store); an entry arrives during it.
    await new Promise((resolve) => setImmediate(resolve));
    writer.add(entry(subject, 2));
    writer.stop();
    await writer.drain(store.db);
    expect(writer.buffer.size).toBe(0);
    const written = await journalRange(store.db, { ...around(), mode: "window", subject, limit: 10 });
    expect(written.map((e) => e.key).sort()).toEqual(["B-0", "B-1", "B-2"]);
  });

  it("after a failed write, leaves full batches to the timer: an outage is not retried per entry", async () => {
    const writer = new JournalWriter(new JournalBuffer(100), { batchEntries: 2, retentionMs: 7 * 86_400_000 });
    const broken = await createTestDatabase();
    await broken.close();
    let asked = 0;
    writer.start(async () => {
      asked++;
      return broken.db;
    }, 3_600_000);
    try {
      writer.add(entry("down", 0));
      writer.add(entry("down", 1));
      await expect.poll(() => asked).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 2; i < 10; i++) writer.add(entry("down", i));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(asked).toBe(1);
      expect(writer.buffer.size).toBe(10);
    } finally {
      writer.stop();
    }
  });
});

describe("journal retention", () => {
  it("drops whole partitions past retention and keeps the recent ones", async () => {
    const writer = new JournalWriter(new JournalBuffer(10), { batchEntries: 100, retentionMs: 7 * 86_400_000 });
    const now = Date.now();
    const old = (now - 10 * 86_400_000) * 1000;
    writer.buffer.push({ atUs: old, mode: "last_seen", subject: uniqueId("svc"), key: "OLD", decision: "new", version: 1, matchedAt: null, hashVersion: 1, caller: null, requestId: null, traceId: null });
    await writer.flush(store.db);
    const oldName = partitionName(Math.floor(old / 86_400_000_000) * 86_400_000);
    expect((await listJournalPartitions(store.db)).map((p) => p.name)).toContain(oldName);

    const dropped = await writer.maintain(store.db, now);
    expect(dropped).toContain(oldName);
    const left = (await listJournalPartitions(store.db)).map((p) => p.name);
    expect(left).not.toContain(oldName);
    expect(left).toContain(partitionName(Math.floor(now / 86_400_000) * 86_400_000));
    const [row] = await runRaw<{ n: string }>(store.db, { name: "", text: "select count(*) as n from journal where key = 'OLD'", values: [] });
    expect(Number(row!.n)).toBe(0);
  });
});

describe("journal partitions", () => {
  it("each has REPLICA IDENTITY FULL (logical replication needs one), a partition made without it gets it at the next call", async () => {
    const day = dayStart(Date.now()) + 5 * 86_400_000;
    const identity = async () =>
      (await runRaw<{ identity: string }>(store.db, { name: "", text: "select relreplident as identity from pg_class where oid = to_regclass($1)", values: [partitionName(day)] }))[0]?.identity;
    await createJournalPartitions(store.db, [day]);
    expect(await identity()).toBe("f");
    await runRaw(store.db, { name: "", text: `alter table ${partitionName(day)} replica identity default`, values: [] });
    expect(await identity()).toBe("d");
    await createJournalPartitions(store.db, [day]);
    expect(await identity()).toBe("f");
  });
});

describe("the journal's append statements", () => {
  it("carry at most 1,000 entries each, so serialising one holds the event loop for a few milliseconds, not tens", () => {
    // At 3,000 checks/s one statement a second of 3,000 entries blocked the loop for about 15 ms; with the journal off weir's p99 was 0.42x.
    expect(journalConfigFromEnv().batchEntries).toBeLessThanOrEqual(1000);
    expect(journalConfigFromEnv().batchEntries).toBeGreaterThanOrEqual(100);
  });
});
