import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { JournalBuffer } from "@/lib/journal/buffer";
import { nowMicros } from "@/lib/journal/clock";
import { journal } from "@/lib/journal/index";
import { JournalWriter } from "@/lib/journal/writer";
import { createService } from "@/test/factories";
import { cliTestDatabase } from "./weir.fixture";

const { store, weir, count } = cliTestDatabase();
const HOUR_MS = 3_600_000;
let serviceId: string;
let range: string[];

interface Line {
  atUs: number;
  at: string;
  key: string;
  decision: string;
  caller: string | null;
  requestId: string | null;
}

const lines = (stdout: string): Line[] => stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));

beforeAll(async () => {
  serviceId = await createService(store().db, {}, "cli-journal");
  // Per key: new, duplicate, changed, duplicate, each from its own request.
  for (const [i, payload] of [1, 1, 2, 2].entries()) {
    for (const key of ["K-1", "K-2", "K-3"]) {
      await check(store().db, { serviceId, messageId: key, payload, origin: { caller: i % 2 ? "producer-b" : "producer-a", requestId: `${key}-req-${i}` } });
    }
  }
  await check(store().db, { serviceId: await createService(store().db), messageId: "K-1", payload: 1 });
  await journal.flush(store().db);
  range = ["--mode", "last_seen", "--subject", serviceId, "--from", new Date(Date.now() - HOUR_MS).toISOString(), "--to", new Date(Date.now() + HOUR_MS).toISOString()];
});

describe("weir journal export", () => {
  it("writes every entry of the range once as NDJSON, oldest first, paging through it; filters by decision, caller and key", async () => {
    const [all, duplicates, fromA, one] = await Promise.all([
      weir(["journal", "export", ...range, "--page-size", "5"]),
      weir(["journal", "export", ...range, "--decision", "duplicate"]),
      weir(["journal", "export", ...range, "--decision", "new", "--decision", "changed", "--caller", "producer-a"]),
      weir(["journal", "export", ...range, "--key", "K-2", "--page-size", "1"]),
    ]);
    expect(all.code, all.stderr).toBe(0);
    const entries = lines(all.stdout);
    expect(entries).toHaveLength(12);
    expect(new Set(entries.map((e) => `${e.atUs}/${e.key}`)).size).toBe(12);
    expect(entries.map((e) => e.atUs)).toEqual(entries.map((e) => e.atUs).sort((a, b) => a - b));
    expect(entries[0]).toMatchObject({ mode: "last_seen", subject: serviceId, key: "K-1", decision: "new", caller: "producer-a", requestId: "K-1-req-0" });
    expect(entries[0]!.at).toMatch(/\.\d{6}Z$/);
    expect(all.stderr).toContain(`exported 12 journal entries of last_seen ${serviceId}`);
    expect(all.stderr).not.toContain("warning");

    expect(lines(duplicates.stdout).map((e) => e.decision)).toEqual(Array(6).fill("duplicate"));
    // producer-a sent the first and third answer of each key: the new and the changed one.
    expect(fromA.code, fromA.stderr).toBe(0);
    expect(lines(fromA.stdout).map((e) => `${e.caller} ${e.decision}`).sort()).toEqual([...Array(3).fill("producer-a changed"), ...Array(3).fill("producer-a new")]);
    expect(lines(one.stdout).map((e) => `${e.key} ${e.decision}`)).toEqual(["K-2 new", "K-2 duplicate", "K-2 changed", "K-2 duplicate"]);
  }, 120_000);

  it("names the minutes whose entries were dropped", async () => {
    const gappy = await createService(store().db);
    const small = new JournalWriter(new JournalBuffer(1), { batchEntries: 100, retentionMs: 7 * 86_400_000 });
    const at = nowMicros();
    for (let i = 0; i < 4; i++) {
      small.buffer.push({ atUs: at + i, mode: "last_seen", subject: gappy, key: `G-${i}`, decision: "duplicate", version: 1, matchedAt: null, hashVersion: 1, caller: null, requestId: null, traceId: null });
    }
    await small.flush(store().db);
    const run = await weir(["journal", "export", ...range.slice(0, 3), gappy, ...range.slice(4)]);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toHaveLength(1);
    const minute = new Date(Math.floor(at / 60_000_000) * 60_000).toISOString().replace(/\.\d+Z$/, "");
    expect(run.stderr).toMatch(new RegExp(`warning: 3 entries were dropped .*${minute}[.0-9]*Z \\(3\\)`));
  }, 60_000);

  it("refuses bad input with exit 2 naming the option", async () => {
    const now = new Date().toISOString();
    const runs = await Promise.all([
      weir(["journal", "export", ...range.slice(0, 1), "lastseen", ...range.slice(2)]),
      weir(["journal", "export", ...range.slice(0, 5), "yesterday", ...range.slice(6)]),
      weir(["journal", "export", ...range.slice(0, 7), range[5]!]),
      weir(["journal", "export", ...range, "--decision", "late"]),
      weir(["journal", "export", "--mode", "window", "--subject", "g", "--from", now]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
    expect(runs[0]!.stderr).toContain("(mode)");
    expect(runs[1]!.stderr).toContain("(from)");
    expect(runs[2]!.stderr).toContain("(to): must be after from");
    expect(runs[3]!.stderr).toContain("(decision)");
    expect(runs[4]!.stderr).toContain("--to");
  }, 60_000);
});

describe("weir journal key", () => {
  it("prints a key's timeline newest first with caller and request id, and pages back with --before", async () => {
    const shown = await weir(["journal", "key", "last_seen", serviceId, "K-3"]);
    expect(shown.code, shown.stderr).toBe(0);
    const rows = shown.stdout.trim().split("\n");
    expect(rows.map((row) => row.split("\t")[1])).toEqual(["duplicate", "changed", "duplicate", "new"]);
    expect(rows[0]).toContain("v2\tmatched ");
    expect(rows[0]).toContain("caller producer-b\trequest K-3-req-3");
    expect(rows[3]).toContain("caller producer-a\trequest K-3-req-0");

    const first = await weir(["journal", "key", "last_seen", serviceId, "K-3", "--limit", "3", "--json"]);
    expect(lines(first.stdout).map((e) => e.requestId)).toEqual(["K-3-req-3", "K-3-req-2", "K-3-req-1"]);
    const before = /--before (\S+)/.exec(first.stderr)?.[1];
    expect(before, first.stderr).toBeDefined();
    const older = await weir(["journal", "key", "last_seen", serviceId, "K-3", "--limit", "3", "--json", "--before", before!]);
    expect(lines(older.stdout).map((e) => e.requestId)).toEqual(["K-3-req-0"]);
    expect(older.stderr).not.toContain("--before");

    const [none, tampered] = await Promise.all([
      weir(["journal", "key", "window", "no-such-group", "K-3"]),
      weir(["journal", "key", "last_seen", serviceId, "K-3", "--before", "xyz"]),
    ]);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("no journal entries for K-3 of window no-such-group");
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toContain("(before)");
  }, 60_000);
});

describe("weir journal level", () => {
  it("shows the level, and sets it with a reason, audited", async () => {
    const level = (...args: string[]) => weir(["journal", "level", "last_seen", serviceId, ...args]);
    expect((await level()).stdout.trim()).toBe(`journal level of service ${serviceId}: all`);
    const [noReason, unknown] = await Promise.all([level("off"), level("some", "--reason", "x")]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason is required");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("(level)");

    const set = await level("changes_and_duplicates", "--reason", "new keys are noise", "--actor", "ops-ann");
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`journal level of service ${serviceId}: all -> changes_and_duplicates`);
    const again = await level("changes_and_duplicates", "--reason", "again", "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ mode: "last_seen", kind: "service", level: "changes_and_duplicates", changed: false });
    expect(JSON.parse((await level("--json")).stdout)).toEqual({ mode: "last_seen", kind: "service", subject: serviceId, level: "changes_and_duplicates" });
    expect(await count(sql`select count(*)::int as n from audit_log where actor = 'cli:ops-ann' and action = 'journal.level' and target = ${`service:${serviceId}`}`)).toBe(1);
  }, 60_000);
});
