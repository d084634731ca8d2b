/**
 * What the latest change of the check statements costs the plain check: the batch decide
 * statement and the one-key function, each against its form before migration 0011 (hash
 * settings versions: one more input array, hashes compared within one version, a `stale`
 * answer), kept verbatim in bench/baselines. One database, alternating 1 s slices, 50 %
 * duplicates and 50 % changes over existing keys, commits unflushed (synchronous_commit off)
 * so that what differs is not drowned by fsync.
 * Run: npx tsx bench/check-statement-cost.ts [--quick] [--seconds N] [--rounds N]. Never fails on timing.
 */
import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";
import { decideOneStatement, decideStatement, type StatementItem } from "@/lib/dedup/last-seen/statement";
import { DECIDE_ONE_BEFORE_0011, decideOneFunctionBefore0011, LEAN_DECIDE_BEFORE_0011 } from "./baselines/last-seen-before-0011";
import { createBenchDatabase } from "./lib/db";
import { numberFlag, quick, runMain } from "./lib/cli";
import { machineLine, ratio, report } from "./lib/report";
import { alternateRounds, distinctBatch, driveConnections, type Send } from "./lib/statement-cost";

const KEYS = numberFlag("keys", quick ? 50_000 : 200_000);
// Many short alternating slices: a neighbour's burst then hits every contender alike.
const SECONDS = numberFlag("seconds", 1);
const ROUNDS = numberFlag("rounds", quick ? 6 : 30);
const WORKERS = 8;
const BATCH = 16;

const hashOf = (k: number) => createHash("sha256").update(`h${k}`).digest("hex");

// The statements in their form before migration 0011, with the same input less what 0011 added
// (the hash version, and the one-key function's second-ask hashes).
function batchBefore(items: StatementItem[]) {
  const [serviceIds, messageIds, hashes, , payloads, depths] = decideStatement(items).values;
  return { name: "before_batch", text: LEAN_DECIDE_BEFORE_0011, values: [serviceIds, messageIds, hashes, payloads, depths] };
}
function oneBefore(item: StatementItem) {
  const [serviceId, messageId, hash, , payload, depth] = decideOneStatement(item).values;
  return { name: "before_one", text: DECIDE_ONE_BEFORE_0011, values: [serviceId, messageId, hash, payload, depth] };
}

let counter = 0;
function item(duplicate = counter++ % 2 === 0): StatementItem {
  const k = Math.floor(Math.random() * KEYS);
  // A duplicate of the seeded hash on the lower half; a real change on the upper half.
  const key = duplicate ? k % (KEYS / 2) : KEYS / 2 + (k % (KEYS / 2));
  return { serviceId: "bench", messageId: `m-${key}`, hash: duplicate ? hashOf(key) : randomBytes(32).toString("hex"), hashVersion: 1, payloadText: null, historyDepth: 0, ref: null };
}

const batch = () => distinctBatch(BATCH, () => item());
// The commit flush is the same for both forms and would drown what differs (CPU, WAL volume).
const drive = (pool: pg.Pool, send: Send) => driveConnections(pool, WORKERS, SECONDS, send, "set synchronous_commit = off");

type Contender = () => { name: string; text: string; values: unknown[] };

/**
 * Statement by statement on one connection, the two forms in random order within each pair and
 * with the same kind of item (both duplicates or both changes): a load burst hits both alike.
 */
type Kind = "duplicates" | "changes";
type PairedCost = Record<Kind, { before: number; now: number }>;

async function paired(pool: pg.Pool, pairs: number, before: (duplicate: boolean) => Contender, now: (duplicate: boolean) => Contender): Promise<PairedCost> {
  const client = await pool.connect();
  await client.query("set synchronous_commit = off");
  const times = {
    duplicates: { before: [] as number[], now: [] as number[] },
    changes: { before: [] as number[], now: [] as number[] },
  };
  try {
    for (let i = 0; i < pairs; i++) {
      const duplicate = i % 2 === 0;
      const both: ["before" | "now", Contender][] = [["before", before(duplicate)], ["now", now(duplicate)]];
      if (Math.random() < 0.5) both.reverse();
      for (const [name, statement] of both) {
        const started = performance.now();
        await client.query(statement());
        times[duplicate ? "duplicates" : "changes"][name].push(performance.now() - started);
      }
    }
  } finally {
    client.release();
  }
  // The mean of the middle 80 %: the cost of a statement, without the scheduler's outliers.
  const trimmed = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.slice(Math.floor(sorted.length * 0.1), Math.ceil(sorted.length * 0.9));
    return (middle.reduce((a, b) => a + b, 0) / middle.length) * 1000;
  };
  const cost = (kind: Kind) => ({ before: trimmed(times[kind].before), now: trimmed(times[kind].now) });
  return { duplicates: cost("duplicates"), changes: cost("changes") };
}

async function main(): Promise<void> {
  console.log(`check-statement-cost: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${ROUNDS} rounds x ${SECONDS} s per contender`);
  const db = await createBenchDatabase("check_statement_cost", { poolMax: 2 });
  try {
    const { pool } = db;
    await pool.query(
      `insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
       select 'bench', 'm-' || k, sha256(('h' || k)::bytea), 1, now(), now() from generate_series(0, $1::int - 1) k`,
      [KEYS],
    );
    await pool.query(decideOneFunctionBefore0011());
    await pool.query("vacuum analyze last_seen");
    const contenders = {
      "batch of 16, before 0011": (c: pg.PoolClient) => run(c, batch(), batchBefore),
      "batch of 16, now": (c: pg.PoolClient) => run(c, batch(), (items) => decideStatement(items)),
      "one key, before 0011": (c: pg.PoolClient) => run(c, [item()], ([one]) => oneBefore(one!)),
      "one key, now": (c: pg.PoolClient) => run(c, [item()], ([one]) => decideOneStatement(one!)),
    };
    const row = await alternateRounds(contenders, ROUNDS, (send) => drive(pool, send));
    const PAIRS = quick ? 2000 : 10_000;
    const batchOf = (duplicate: boolean) => distinctBatch(BATCH, () => item(duplicate));
    const one = await paired(pool, PAIRS, (d) => () => oneBefore(item(d)), (d) => () => decideOneStatement(item(d)));
    const batched = await paired(pool, PAIRS / 4, (d) => () => batchBefore(batchOf(d)), (d) => () => decideStatement(batchOf(d)));
    const perStatement = (metric: string, cost: PairedCost) =>
      (["duplicates", "changes"] as const).map((kind) => {
        const x = ratio(cost[kind].before, cost[kind].now);
        return { metric: `${metric}, ${kind}`, unit: "us per statement, trimmed mean", ours: cost[kind].now, baseline: cost[kind].before, ratio: x, target: ">= 0.97", met: x >= 0.97 };
      });
    report("check-statement-cost", [
      row("batch statement, checks/s (now vs before 0011)", "batch of 16, now", "batch of 16, before 0011"),
      row("one-key function, checks/s (now vs before 0011)", "one key, now", "one key, before 0011"),
      ...perStatement("one-key function, paired", one),
      ...perStatement("batch of 16, paired", batched),
    ], [`medians of ${ROUNDS} alternating ${SECONDS} s slices; ${WORKERS} connections; 50 % duplicates, 50 % changes; synchronous_commit off`, "paired rows: one connection, statement by statement, ratio = before / now"]);
  } finally {
    await db.drop();
  }
}

async function run(client: pg.PoolClient, items: StatementItem[], statement: (items: StatementItem[]) => { name: string; text: string; values: unknown[] }): Promise<number> {
  const { name, text, values } = statement(items);
  const result = await client.query({ name, text, values });
  if (result.rows.length === 0 && items.length > 1) throw new Error("no decisions");
  return items.length;
}

runMain(main);
