/**
 * What the duplicate's "why" (acceptedAt) and the revert's previous_hash cost the check
 * statements: the batch decide statement and the one-key function, each against its form
 * before migration 0009 (no last_changed returned, no previous_hash written), on one
 * database, in alternating 1 s slices, 50 % duplicates and 50 % changes over existing keys,
 * commits unflushed (synchronous_commit off) so that what differs is not drowned by fsync.
 * Run: npx tsx bench/check-why-cost.ts [--quick] [--seconds N] [--rounds N]. Never fails on timing.
 */
import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";
import { decideOneStatement, decideStatement, type StatementItem } from "@/lib/dedup/last-seen/statement";
import { createBenchDatabase } from "./lib/db";
import { numberFlag, quick, runMain } from "./lib/cli";
import { machineLine, ratio, report } from "./lib/report";
import { alternateRounds, distinctBatch, driveConnections, type Send } from "./lib/statement-cost";

const KEYS = numberFlag("keys", quick ? 50_000 : 200_000);
// Many short alternating slices: a neighbour's burst then hits every contender alike.
const SECONDS = numberFlag("seconds", 1);
const ROUNDS = numberFlag("rounds", quick ? 6 : 20);
const WORKERS = 8;
const BATCH = 16;

const hashOf = (k: number) => createHash("sha256").update(`h${k}`).digest("hex");

/** The statement as it was before 0009: the same text without the two additions. */
function before(text: string): string {
  const edits: [string, string][] = [
    ["select i.ord, s.version, s.last_changed\n", "select i.ord, s.version\n"],
    ["previous_hash = s.hash, ", ""],
    ["'duplicate' as decision, u.last_changed from", "'duplicate' as decision from"],
    ["else 'changed' end, w.last_changed\n", "else 'changed' end\n"],
    ["select version, decision, last_changed from weir_last_seen_decide_v2(", "select version, decision from weir_last_seen_decide("],
  ];
  let out = text;
  for (const [from, to] of edits) if (out.includes(from)) out = out.replace(from, to);
  if (out.includes("previous_hash") || out.includes("last_changed from") || out.includes("_v2(")) throw new Error("baseline edit did not apply");
  return out;
}

let counter = 0;
function item(duplicate = counter++ % 2 === 0): StatementItem {
  const k = Math.floor(Math.random() * KEYS);
  // A duplicate of the seeded hash on the lower half; a real change on the upper half.
  const key = duplicate ? k % (KEYS / 2) : KEYS / 2 + (k % (KEYS / 2));
  return { serviceId: "bench", messageId: `m-${key}`, hash: duplicate ? hashOf(key) : randomBytes(32).toString("hex"), payloadText: null, historyDepth: 0 };
}

const batch = () => distinctBatch(BATCH, () => item());
// The commit flush is the same for both forms and would drown what differs (CPU, WAL volume).
const drive = (pool: pg.Pool, send: Send) => driveConnections(pool, WORKERS, SECONDS, send, "set synchronous_commit = off");

type Contender = () => { name: string; text: string; values: unknown[] };

/**
 * Statement by statement on one connection, the two forms in random order within each pair and
 * with the same kind of item (both duplicates or both changes): a load burst hits both alike.
 */
async function paired(pool: pg.Pool, pairs: number, before: (duplicate: boolean) => Contender, now: (duplicate: boolean) => Contender): Promise<{ before: number; now: number }> {
  const client = await pool.connect();
  await client.query("set synchronous_commit = off");
  const times = { before: [] as number[], now: [] as number[] };
  try {
    for (let i = 0; i < pairs; i++) {
      const duplicate = i % 2 === 0;
      const both: ["before" | "now", Contender][] = [["before", before(duplicate)], ["now", now(duplicate)]];
      if (Math.random() < 0.5) both.reverse();
      for (const [name, statement] of both) {
        const started = performance.now();
        await client.query(statement());
        times[name].push(performance.now() - started);
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
  return { before: trimmed(times.before), now: trimmed(times.now) };
}

async function main(): Promise<void> {
  console.log(`check-why-cost: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${ROUNDS} rounds x ${SECONDS} s per contender`);
  const db = await createBenchDatabase("check_why_cost", { poolMax: 2 });
  try {
    const { pool } = db;
    await pool.query(
      `insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
       select 'bench', 'm-' || k, sha256(('h' || k)::bytea), 1, now(), now() from generate_series(0, $1::int - 1) k`,
      [KEYS],
    );
    // The one-key function as migration 0006 made it, for the baseline.
    await pool.query(`
      create or replace function weir_last_seen_decide(p_service_id text, p_message_id text, p_hash bytea, p_payload text, p_history_depth int)
      returns table (version bigint, decision text) language plpgsql as $$
      #variable_conflict use_column
      declare v_version bigint;
      begin
        select s.version into v_version from last_seen s where s.service_id = p_service_id and s.message_id = p_message_id and s.hash = p_hash;
        if found then return query select v_version, 'duplicate'::text; return; end if;
        insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
        values (p_service_id, p_message_id, p_hash, 1, now(), now())
        on conflict (service_id, message_id) do update set hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
          where s.hash is distinct from excluded.hash
        returning s.version into v_version;
        if not found then return; end if;
        return query select v_version, case when v_version = 1 then 'new' else 'changed' end;
      end $$`);
    await pool.query("vacuum analyze last_seen");
    const contenders = {
      "batch of 16, before 0009": (c: pg.PoolClient) => run(c, batch(), (items) => ({ ...decideStatement(items), name: "before_batch", text: before(decideStatement(items).text) })),
      "batch of 16, now": (c: pg.PoolClient) => run(c, batch(), (items) => decideStatement(items)),
      "one key, before 0009": (c: pg.PoolClient) => run(c, [item()], ([one]) => ({ ...decideOneStatement(one!), name: "before_one", text: before(decideOneStatement(one!).text) })),
      "one key, now": (c: pg.PoolClient) => run(c, [item()], ([one]) => decideOneStatement(one!)),
    };
    const row = await alternateRounds(contenders, ROUNDS, (send) => drive(pool, send));
    const PAIRS = quick ? 2000 : 10_000;
    const batchOf = (duplicate: boolean) => {
      let i = 0;
      return distinctBatch(BATCH, () => item(i++ % 2 === 0 ? duplicate : !duplicate));
    };
    const oneBefore = (d: boolean) => () => ({ ...decideOneStatement(item(d)), name: "before_one", text: before(decideOneStatement(item(d)).text) });
    const oneNow = (d: boolean) => () => decideOneStatement(item(d));
    const one = await paired(pool, PAIRS, oneBefore, oneNow);
    const batchBefore = (d: boolean) => () => {
      const statement = decideStatement(batchOf(d));
      return { ...statement, name: "before_batch", text: before(statement.text) };
    };
    const batchNow = (d: boolean) => () => decideStatement(batchOf(d));
    const batched = await paired(pool, PAIRS / 4, batchBefore, batchNow);
    const perStatement = (metric: string, r: { before: number; now: number }) => {
      const x = ratio(r.before, r.now);
      return { metric, unit: "us per statement, trimmed mean", ours: r.now, baseline: r.before, ratio: x, target: ">= 0.97", met: x >= 0.97 };
    };
    report("check-why-cost", [
      row("batch statement, checks/s (now vs before 0009)", "batch of 16, now", "batch of 16, before 0009"),
      row("one-key function, checks/s (now vs before 0009)", "one key, now", "one key, before 0009"),
      perStatement("one-key function, paired", one),
      perStatement("batch of 16, paired", batched),
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
