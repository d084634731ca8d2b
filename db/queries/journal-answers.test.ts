import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { JournalBuffer } from "@/lib/journal/buffer";
import type { JournalEntry } from "@/lib/journal/entry";
import { JournalWriter } from "@/lib/journal/writer";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import type { CallerCount, DecisionCount, RangeQuery } from "./journal";
import { decisionCounts, topCallers } from "./journal";
import { answerCounts, callerCounts, dropJournalAnswersBefore, rangeSums, rollUpJournalAnswers } from "./journal-answers";

let store: TestDatabase;
let writer: JournalWriter;
const services: string[] = [];
const NOW = Date.now();
const MIN = 60_000;
const CALLERS = ["orders-api", "replayer", null, "billing"];

function entry(subject: string, minutesAgo: number, i: number): JournalEntry {
  return {
    atUs: (NOW - minutesAgo * MIN) * 1000 + i,
    mode: "last_seen",
    subject,
    key: `k-${minutesAgo}-${i}`,
    decision: ["new", "duplicate", "duplicate", "changed", "new"][(minutesAgo + i) % 5]!,
    version: 1,
    matchedAt: null,
    hashVersion: 1,
    caller: CALLERS[(minutesAgo * 7 + i) % CALLERS.length]!,
    requestId: null,
    traceId: null,
  };
}

beforeAll(async () => {
  store = await createTestDatabase();
  for (let s = 0; s < 2; s++) services.push(await createService(store.db));
  writer = new JournalWriter(new JournalBuffer(100_000), { batchEntries: 500, retentionMs: 7 * 86_400_000 });
  // Over the last 30 hours, every 7 minutes, a few entries for each service.
  for (let minutesAgo = 1; minutesAgo < 30 * 60; minutesAgo += 7) {
    services.forEach((subject, s) => {
      for (let i = 0; i < 1 + ((minutesAgo + s) % 4); i++) writer.buffer.push(entry(subject, minutesAgo, i));
    });
  }
  await writer.flush(store.db);
  // The upkeep makes the partitions and sums the closed quarter hours, at most 48 hours of them a time.
  await writer.maintain(store.db);
  await writer.maintain(store.db);
});

const byCaller = (counts: CallerCount[]) => [...counts].sort((a, b) => String(a.caller).localeCompare(String(b.caller)));
const byDecision = (counts: DecisionCount[]) => [...counts].sort((a, b) => `${a.mode} ${a.decision}`.localeCompare(`${b.mode} ${b.decision}`));
/** What the rollup answers for a range, and what the journal alone answers. */
const both = async (q: RangeQuery & { limit: number }) => ({
  rolled: { callers: byCaller(await callerCounts(store.db, q)), decisions: byDecision(await answerCounts(store.db, q)) },
  journal: { callers: byCaller(await topCallers(store.db, q)), decisions: byDecision(await decisionCounts(store.db, q)) },
});
const range = (fromMinutesAgo: number, toMinutesAgo: number, subject?: string): RangeQuery & { limit: number } => ({
  fromUs: (NOW - fromMinutesAgo * MIN) * 1000,
  toUs: (NOW - toMinutesAgo * MIN) * 1000,
  mode: "last_seen",
  subject,
  limit: 100,
});
const RANGES = [range(24 * 60, 0), range(24 * 60 + 13, 37), range(29 * 60, 60), range(24 * 60, 0, services[0]), range(60, 0), range(200, 150)];

describe("the journal's answers per quarter hour (journal_answers_quarter)", () => {
  it("are summed up to the last closed quarter, and count what the journal counts for any range", async () => {
    const [mark] = (await store.db.execute(sql`select rolled_until from stats_rollup where name = 'journal_answers_quarter'`)).rows as { rolled_until: string }[];
    const closedQuarter = Math.floor((Date.now() - 10 * MIN) / 900_000) * 900_000;
    expect(new Date(mark!.rolled_until).getTime()).toBe(closedQuarter);
    for (const q of [...RANGES, range(24 * 60, 0, services[1]), { ...range(24 * 60, 0), mode: undefined }]) {
      const { rolled, journal } = await both(q);
      expect(rolled.callers.length, JSON.stringify(q)).toBeGreaterThan(0);
      expect(rolled, JSON.stringify(q)).toEqual(journal);
    }
  });

  it("are what a range's whole quarters are read from: a subject's own, or the sums over every subject", async () => {
    // A whole quarter of the range in which the service heard from orders-api.
    const [found] = (await store.db.execute(sql`select bucket::text as b from journal_answers_quarter
      where subject = ${services[0]} and caller = 'orders-api' and decision = 'duplicate' and bucket >= now() - interval '20 hours'
      order by bucket limit 1`)).rows as { b: string }[];
    const quarter = found!.b;
    const read = (counts: CallerCount[]) => counts.find((c) => c.caller === "orders-api")!.duplicates;
    for (const [subject, q] of [[services[0]!, range(24 * 60, 0, services[0])], ["", range(24 * 60, 0)]] as const) {
      const shift = (by: number) => store.db.execute(sql`update journal_answers_quarter set answers = answers + ${by}
        where subject = ${subject} and caller = 'orders-api' and decision = 'duplicate' and bucket = ${quarter}::timestamptz`);
      const duplicates = (counts: DecisionCount[]) => counts.find((c) => c.decision === "duplicate")!.count;
      await shift(1000);
      expect(read(await callerCounts(store.db, q)) - read(await topCallers(store.db, q)), subject).toBe(1000);
      expect(duplicates(await answerCounts(store.db, q)) - duplicates(await decisionCounts(store.db, q)), subject).toBe(1000);
      await shift(-1000);
    }
  });

  it("are read for every subject from the index alone, not a heap block a row", async () => {
    const q = range(24 * 60, 0);
    const whole = { fromUs: Math.ceil(q.fromUs / 900_000_000) * 900_000_000, toUs: Math.floor(q.toUs / 900_000_000) * 900_000_000 };
    const scans = await store.db.transaction(async (tx) => {
      // Priced out, so that only an index without every column read leaves a heap scan.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const result = await tx.execute(sql`explain (format json) ${rangeSums(q, whole, sql`caller, sum(answers)`, sql`caller`)}`);
      const raw = (result.rows[0] as { "QUERY PLAN": unknown })["QUERY PLAN"];
      const found: string[] = [];
      const walk = (node: { "Node Type": string; "Relation Name"?: string; Plans?: unknown[] }) => {
        if (node["Relation Name"] === "journal_answers_quarter") found.push(node["Node Type"]);
        node.Plans?.forEach((child) => walk(child as typeof node));
      };
      walk(((typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: Parameters<typeof walk>[0] }[])[0]!.Plan);
      return found;
    });
    expect(scans).toEqual(["Index Only Scan"]);
  });

  it("take in entries appended late, up to 3 hours before the mark", async () => {
    for (let i = 0; i < 25; i++) writer.buffer.push({ ...entry(services[1]!, 150, 100 + i), decision: "duplicate", caller: "late-node" });
    await writer.flush(store.db);
    await store.db.execute(sql`update stats_rollup set rolled_until = rolled_until - interval '1 hour' where name = 'journal_answers_quarter'`);
    await rollUpJournalAnswers(store.db, NOW - 2 * 86_400_000);
    for (const q of RANGES) {
      const { rolled, journal } = await both(q);
      expect(rolled, JSON.stringify(q)).toEqual(journal);
    }
    expect((await callerCounts(store.db, range(24 * 60, 0))).find((c) => c.caller === "late-node")).toMatchObject({ count: 25, duplicates: 25 });
  });

  it("are kept as long as the journal's partitions", async () => {
    const count = async () => Number(((await store.db.execute(sql`select count(*)::int as n from journal_answers_quarter`)).rows[0] as { n: number }).n);
    expect(await count()).toBeGreaterThan(0);
    await dropJournalAnswersBefore(store.db, NOW - 12 * 3_600_000);
    const [oldest] = (await store.db.execute(sql`select min(bucket) as b from journal_answers_quarter`)).rows as { b: string }[];
    expect(new Date(oldest!.b).getTime()).toBeGreaterThanOrEqual(NOW - 12 * 3_600_000);
  });
});
