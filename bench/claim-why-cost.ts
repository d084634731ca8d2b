/**
 * What the duplicate's "why" (windowStartedAt) and sliding windows cost the claim statements
 * of a non-sliding group: the batch claim statement and the one-key function, each against its
 * form before migration 0010 (no window start returned, no slide step), on one database, in
 * alternating rounds, 50 % duplicates inside their window and 50 % first claims.
 * Run: npx tsx bench/claim-why-cost.ts [--quick] [--seconds N] [--rounds N]. Never fails on timing.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { claimOneStatement, claimStatement, type ClaimKey } from "@/lib/dedup/window/claim-statement";
import { createBenchDatabase } from "./lib/db";
import { numberFlag, quick, runMain } from "./lib/cli";
import { machineLine, report } from "./lib/report";
import { alternateRounds, distinctBatch, driveConnections } from "./lib/statement-cost";

const KEYS = numberFlag("keys", quick ? 50_000 : 200_000);
const SECONDS = numberFlag("seconds", quick ? 2 : 3);
const ROUNDS = numberFlag("rounds", quick ? 2 : 20);
const WORKERS = 8;
const BATCH = 16;
const GROUP = "bench";
const DEFAULT_TTL = 86_400;

/** The batch claim statement before 0010, verbatim. */
const BEFORE_BATCH_SQL = `
with input as (
  select i.consumer_group, i.message_id, coalesce(g.ttl_seconds, $3::int) as ttl_seconds
  from unnest($1::text[], $2::text[]) as i(consumer_group, message_id)
  left join consumer_groups g on g.id = i.consumer_group
),
live as (
  select r.consumer_group, r.message_id
  from input i join window_records r on r.consumer_group = i.consumer_group and r.message_id = i.message_id
  where r.claimed_at > statement_timestamp() - make_interval(secs => i.ttl_seconds)
),
written as (
  insert into window_records as r (consumer_group, message_id, claimed_at, claim_cutoff)
  select i.consumer_group, i.message_id, statement_timestamp(), statement_timestamp() - make_interval(secs => i.ttl_seconds)
  from input i
  where not exists (select 1 from live l where l.consumer_group = i.consumer_group and l.message_id = i.message_id)
  order by i.consumer_group, i.message_id
  on conflict (consumer_group, message_id) do update
    set claimed_at = excluded.claimed_at, claim_cutoff = excluded.claim_cutoff, previous_claimed_at = r.claimed_at
    where r.claimed_at <= excluded.claim_cutoff
  returning r.consumer_group, r.message_id, r.claimed_at, r.previous_claimed_at
)
select i.consumer_group, i.message_id, i.ttl_seconds, w.message_id is not null as claimed,
  round((extract(epoch from w.claimed_at - w.previous_claimed_at) - i.ttl_seconds)::numeric, 3)::float8 as late_by_seconds
from input i
left join written w on w.consumer_group = i.consumer_group and w.message_id = i.message_id
`;

/** The one-key call before 0010, verbatim: the function of migration 0006 (recreated below). */
const BEFORE_ONE_SQL = "select $1::text as consumer_group, $2::text as message_id, c.* from weir_window_claim($1, $2, $3) c";

let counter = 0;
function item(): ClaimKey {
  // Even calls: a duplicate of a seeded live record; odd: a first claim of an id never seen.
  const duplicate = counter++ % 2 === 0;
  const messageId = duplicate ? `m-${Math.floor(Math.random() * KEYS)}` : `n-${randomBytes(8).toString("hex")}`;
  return { consumerGroup: GROUP, messageId };
}

const batch = () => distinctBatch(BATCH, item);

async function main(): Promise<void> {
  console.log(`claim-why-cost: ${machineLine()}; ${KEYS.toLocaleString("en-US")} live records, ${ROUNDS} rounds x ${SECONDS} s per contender`);
  const db = await createBenchDatabase("claim_why_cost", { poolMax: 2 });
  try {
    const { pool } = db;
    await pool.query(`insert into consumer_groups (id, ttl_seconds) values ($1, $2)`, [GROUP, DEFAULT_TTL]);
    await pool.query(
      `insert into window_records (consumer_group, message_id, claimed_at) select $1, 'm-' || k, now() from generate_series(0, $2::int - 1) k`,
      [GROUP, KEYS],
    );
    // The one-key function as migration 0006 made it, for the baseline.
    await pool.query(`
      create or replace function weir_window_claim(p_consumer_group text, p_message_id text, p_default_ttl int)
      returns table (ttl_seconds int, claimed boolean, late_by_seconds float8) language plpgsql as $$
      #variable_conflict use_column
      declare v_ttl int; v_at timestamptz := statement_timestamp(); v_claimed timestamptz; v_previous timestamptz;
      begin
        v_ttl := coalesce((select g.ttl_seconds from consumer_groups g where g.id = p_consumer_group), p_default_ttl);
        perform 1 from window_records r where r.consumer_group = p_consumer_group and r.message_id = p_message_id
          and r.claimed_at > v_at - make_interval(secs => v_ttl);
        if found then return query select v_ttl, false, null::float8; return; end if;
        insert into window_records as r (consumer_group, message_id, claimed_at, claim_cutoff)
        values (p_consumer_group, p_message_id, v_at, v_at - make_interval(secs => v_ttl))
        on conflict (consumer_group, message_id) do update
          set claimed_at = excluded.claimed_at, claim_cutoff = excluded.claim_cutoff, previous_claimed_at = r.claimed_at
          where r.claimed_at <= excluded.claim_cutoff
        returning r.claimed_at, r.previous_claimed_at into v_claimed, v_previous;
        if not found then return query select v_ttl, false, null::float8; return; end if;
        return query select v_ttl, true, round((extract(epoch from v_claimed - v_previous) - v_ttl)::numeric, 3)::float8;
      end $$`);
    await pool.query("vacuum analyze window_records");
    const contenders = {
      "batch of 16, before 0010": (c: pg.PoolClient) => run(c, batch(), (items) => ({ ...claimStatement(items, DEFAULT_TTL), name: "before_batch", text: BEFORE_BATCH_SQL })),
      "batch of 16, now": (c: pg.PoolClient) => run(c, batch(), (items) => claimStatement(items, DEFAULT_TTL)),
      "one key, before 0010": (c: pg.PoolClient) => run(c, [item()], ([one]) => ({ ...claimOneStatement(one!, DEFAULT_TTL), name: "before_one", text: BEFORE_ONE_SQL })),
      "one key, now": (c: pg.PoolClient) => run(c, [item()], ([one]) => claimOneStatement(one!, DEFAULT_TTL)),
    };
    const row = await alternateRounds(
      contenders,
      ROUNDS,
      (send) => driveConnections(pool, WORKERS, SECONDS, send),
      () => pool.query("vacuum window_records"),
    );
    report("claim-why-cost", [
      row("batch statement, claims/s (now vs before 0010)", "batch of 16, now", "batch of 16, before 0010"),
      row("one-key function, claims/s (now vs before 0010)", "one key, now", "one key, before 0010"),
    ], [`medians of ${ROUNDS} rounds; ${WORKERS} connections; 50 % duplicates, 50 % first claims; a non-sliding group`]);
  } finally {
    await db.drop();
  }
}

async function run(client: pg.PoolClient, items: ClaimKey[], statement: (items: ClaimKey[]) => { name: string; text: string; values: unknown[] }): Promise<number> {
  const { name, text, values } = statement(items);
  const result = await client.query({ name, text, values });
  if (result.rows.length !== items.length) throw new Error("missing decisions");
  return items.length;
}

runMain(main);
