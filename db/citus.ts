import { JOURNAL_APPEND_FUNCTION } from "./queries/journal-append-sql";
import { LAST_SEEN_DECIDE_ON_NODE_FUNCTION } from "./queries/last-seen-decide-on-node-sql";
import { LAST_SEEN_DECIDE_ON_SHARDS_FUNCTION, LOCK_LAST_SEEN_SHARDS_FUNCTION } from "./queries/last-seen-decide-on-shards-sql";
import { STATS_FLUSH_FUNCTION } from "./queries/stats-flush-sql";
import { WINDOW_CLAIM_ON_NODE_FUNCTION } from "./queries/window-claim-on-node-sql";
import { runRaw, type RawStatement } from "./raw";
import type { DbOrTx } from "./types";

interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  connect?: unknown;
}

/**
 * How weir's tables are laid out on Citus (see README "Scaling").
 *
 * Hot tables are distributed by message id, not by service or group: a key's
 * statements still name one distribution value, and one huge service or group
 * spreads over every shard instead of filling one. Everything a key's
 * statements join or move (payload versions, reset copies) is co-located with
 * it. Idempotency keys go by key for the same reason (a busy scope spreads).
 * Settings, users and tokens are small and read by every statement or page:
 * reference tables, a copy on every node. What is written per decision or every
 * few seconds is distributed, so that its writes commit on one worker
 * (docs/citus-statements.md lists what still spans shards).
 */
export const DISTRIBUTED_TABLES: readonly { table: string; column: string }[] = [
  { table: "last_seen", column: "message_id" },
  { table: "payload_versions", column: "message_id" },
  { table: "window_records", column: "message_id" },
  { table: "reset_rows", column: "message_id" },
  { table: "idempotency_keys", column: "key" },
  // Per-subject counters: a chart of one subject reads one shard; rollups move rows within a shard.
  { table: "stats_minute", column: "subject" },
  { table: "stats_hour", column: "subject" },
  { table: "stats_quarter", column: "subject" },
  { table: "stats_day", column: "subject" },
  // By key, beside last_seen: one key's timeline reads one shard. Its daily partitions, made later
  // by CREATE TABLE ... PARTITION OF on the coordinator, are distributed and co-located by Citus.
  { table: "journal", column: "key" },
  // Dropped-entry counts go by subject, like the stats: a subject's gaps read one shard.
  { table: "journal_gaps", column: "subject" },
  // The journal's answers counted per subject, caller, decision and quarter hour: a subject's on one shard, like its stats.
  { table: "journal_answers_quarter", column: "subject" },
  // Once reference tables (every write a two-phase commit on every node), now each row on one shard:
  // a revert's audit row commits beside the key it reverted (shard_key, see shardPeer), and a rate
  // limit's counter (one per revert by a token) is one routed upsert. Console pages read every shard.
  { table: "audit_log", column: "shard_key" },
  { table: "auth_rate_limits", column: "key" },
  // The rollups' marks: each written alone after its rows, by name (see rollUpByShard).
  { table: "stats_rollup", column: "name" },
  // Each token's last use, stamped once a minute per token and node: one routed upsert (api_tokens,
  // read by every node, stays a reference table and is no longer written on use).
  { table: "api_token_uses", column: "token_id" },
];

/** In foreign-key order: a referenced table becomes a reference table before the tables that point to it. */
export const REFERENCE_TABLES: readonly string[] = [
  "services",
  "service_hash_settings",
  "consumer_groups",
  "idempotency_scopes",
  "auth_users",
  "auth_accounts",
  "auth_sessions",
  "auth_verifications",
  "auth_settings",
  "api_tokens",
  "ttl_changes",
  "reset_batches",
  // Read by every node's journal writer on each refresh of the levels.
  "journal_settings",
  // Refused sign-ins, written beside the auth tables (all reference tables) and read by the console's
  // security page. Not left local to the coordinator: a weir node connected to a worker records there too.
  // Its key (id) holds no distribution column to spread by; each refusal is one two-phase commit.
  "security_events",
];

/**
 * The one-key functions (the decisions; the journal's append of one shard; the checks and the claims
 * of one worker), each run beside the shard of its key.
 */
export const DISTRIBUTED_FUNCTIONS: readonly { signature: string; argument: string; colocateWith: string }[] = [
  { signature: "weir_last_seen_decide_v3(text, text, bytea, int, text, int, bytea, int)", argument: "p_message_id", colocateWith: "last_seen" },
  { signature: "weir_last_seen_decide_v4(text, text, bytea, int, text, int, bytea, int, boolean)", argument: "p_message_id", colocateWith: "last_seen" },
  { signature: "weir_last_seen_decide_v5(text, text, bytea, int, text, int, bytea, int, boolean, text)", argument: "p_message_id", colocateWith: "last_seen" },
  { signature: LAST_SEEN_DECIDE_ON_NODE_FUNCTION.signature, argument: "p_message_id", colocateWith: "last_seen" },
  { signature: LAST_SEEN_DECIDE_ON_SHARDS_FUNCTION.signature, argument: "p_message_id", colocateWith: "last_seen" },
  { signature: "weir_window_claim_v2(text, text, int)", argument: "p_message_id", colocateWith: "window_records" },
  { signature: "weir_window_claim_v3(text, text, int, text)", argument: "p_message_id", colocateWith: "window_records" },
  { signature: WINDOW_CLAIM_ON_NODE_FUNCTION.signature, argument: "p_message_id", colocateWith: "window_records" },
  { signature: "weir_window_release(text, text, int, timestamp with time zone, timestamp with time zone)", argument: "p_message_id", colocateWith: "window_records" },
  { signature: "weir_idempotency_begin(text, text, bytea, int, int)", argument: "p_key", colocateWith: "idempotency_keys" },
  { signature: "weir_idempotency_begin_v2(text, text, bytea, int, int, text)", argument: "p_key", colocateWith: "idempotency_keys" },
  { signature: JOURNAL_APPEND_FUNCTION.signature, argument: "p_key", colocateWith: "journal" },
  { signature: STATS_FLUSH_FUNCTION.signature, argument: "p_subject", colocateWith: "stats_minute" },
];

/**
 * Functions only Citus needs, made here rather than by a migration: on plain PostgreSQL their
 * statement runs as it is. A changed body takes a new name, like the migrations' functions.
 */
export const CITUS_ONLY_FUNCTIONS: readonly { signature: string; create: string }[] = [
  JOURNAL_APPEND_FUNCTION,
  STATS_FLUSH_FUNCTION,
  // The previous release's per-worker call of checks, kept for its nodes during a rolling upgrade.
  LAST_SEEN_DECIDE_ON_NODE_FUNCTION,
  LOCK_LAST_SEEN_SHARDS_FUNCTION,
  LAST_SEEN_DECIDE_ON_SHARDS_FUNCTION,
  WINDOW_CLAIM_ON_NODE_FUNCTION,
];

/**
 * The shard count weir creates when the database leaves `citus.shard_count` at Citus's default
 * (32). A worker decides a call's keys one statement per shard, so keys that share a shard share
 * a statement: measured on bench/scaling.ts, single checks sent to their shard's worker gave 0.90x
 * one PostgreSQL with 8 shards, 0.72x with 16, 0.46x with 32 (batches of 20: 0.41x, 0.33x, 0.27x).
 * 16 shard groups still spread over up to 16 workers, 2 each on 8 (docs/citus.md, "The shard count").
 */
export const DEFAULT_SHARD_COUNT = 16;

/** `citus.shard_count` when the database, its role or the server set it; DEFAULT_SHARD_COUNT otherwise. */
async function shardCountToCreate(client: Queryable): Promise<number> {
  const { rows } = await client.query("select setting::int as count, source from pg_settings where name = 'citus.shard_count'");
  const row = rows[0] as { count: number; source: string };
  return row.source === "default" ? DEFAULT_SHARD_COUNT : row.count;
}

const HAS_CITUS = "select exists (select 1 from pg_extension where extname = 'citus') as citus";

export async function hasCitus(client: Queryable): Promise<boolean> {
  const { rows } = await client.query(HAS_CITUS);
  return (rows[0] as { citus: boolean } | undefined)?.citus === true;
}

/**
 * Distributes weir's tables and functions on a Citus coordinator; a no-op for
 * what already is. Each call runs in its own transaction (Citus refuses to
 * create several distributed tables in one), so a crash midway is finished by
 * the next start.
 */
export async function distributeForCitus(client: Queryable): Promise<void> {
  const { rows } = await client.query("select logicalrelid::text as name, partmethod from pg_dist_partition");
  const placed = new Map((rows as { name: string; partmethod: string }[]).map((row) => [row.name, row.partmethod]));
  // The append-only triggers of audit_log run on every placement: they only raise, they never write elsewhere.
  await client.query("set citus.enable_unsafe_triggers to on");
  for (const table of REFERENCE_TABLES) {
    if (!placed.has(table)) await client.query("select create_reference_table($1)", [table]);
  }
  const [first] = DISTRIBUTED_TABLES;
  for (const { table, column } of DISTRIBUTED_TABLES) {
    if (placed.get(table) === "h") continue;
    // Made a reference table by an older weir ('n'): back to a local table first, then distributed.
    if (placed.get(table) === "n") await client.query("select undistribute_table($1)", [table]);
    if (table === first!.table) {
      // The first sets the shard count; every other table is co-located with it.
      await client.query("select create_distributed_table($1, $2, colocate_with => 'default', shard_count => $3)", [
        table,
        column,
        await shardCountToCreate(client),
      ]);
    } else {
      await client.query("select create_distributed_table($1, $2, colocate_with => $3)", [table, column, first!.table]);
    }
  }
  for (const { signature, create } of CITUS_ONLY_FUNCTIONS) {
    const { rows: found } = await client.query("select to_regprocedure($1) is not null as found", [signature]);
    if (!(found[0] as { found: boolean }).found) await client.query(create);
  }
  const { rows: functions } = await client.query(
    "select oid::regprocedure::text as signature from pg_dist_object o join pg_proc p on o.objid = p.oid where o.distribution_argument_index is not null",
  );
  const distributed = new Set((functions as { signature: string }[]).map((row) => row.signature.replace(/\s+/g, "")));
  for (const { signature, argument, colocateWith } of DISTRIBUTED_FUNCTIONS) {
    if (distributed.has(signature.replace(/\s+/g, "").replace(/\bint\b/g, "integer"))) continue;
    await client.query("select create_distributed_function($1, $2, colocate_with => $3)", [signature, argument, colocateWith]);
  }
}

// Per driver client (a pool, or the connection of a transaction): asked once, remembered.
const known = new WeakMap<object, Promise<boolean>>();

/**
 * What a node on Citus says at start when its hot path goes through the coordinator: every check
 * is then planned and forwarded there, at 0.29x one PostgreSQL's single checks where the workers
 * answer directly at 0.9x (docs/citus.md). Answers stay right either way, so it is a hint, not an error.
 */
export function citusRoutingHint(citus: boolean, routedToWorkers: boolean): string | undefined {
  if (!citus || routedToWorkers) return undefined;
  return (
    "[weir] store: Citus, with every check going through the coordinator (WEIR_CITUS_ROUTE_URLS is unset). " +
    "Set it to the workers' URLs to send each key to its shard's worker (docs/citus.md, \"No coordinator on the hot path\")."
  );
}

/** True when `db` runs on a Citus coordinator: hot statements then go one shard or one worker at a time. */
export function isCitus(db: DbOrTx): Promise<boolean> {
  const client = (db as unknown as { session: { client: Queryable } }).session.client;
  let answer = known.get(client);
  if (!answer) {
    // PGlite has no connect(); it never has Citus.
    answer = typeof client.connect === "function" ? hasCitus(client) : Promise.resolve(false);
    answer.catch(() => known.delete(client));
    known.set(client, answer);
  }
  return answer;
}

const SHARD_OF_SQL = "select get_shard_id_for_distribution_column($1::regclass, k) as shard from unnest($2::text[]) with ordinality as u(k, i) order by i";

// The node group holding each value's shard (one placement per shard: weir's replication factor is 1).
const NODE_OF_SQL = `select (select min(p.groupid) from pg_dist_placement p where p.shardid = get_shard_id_for_distribution_column($1::regclass, k)) as node
  from unnest($2::text[]) with ordinality as u(k, i) order by i`;

/**
 * Groups `items` by the shard of their distribution value in `table`, each group in the items'
 * order: what a caller sends as one call per shard, so that no write spans two workers.
 */
export function groupByShard<T>(db: DbOrTx, table: string, items: readonly T[], valueOf: (item: T) => string): Promise<T[][]> {
  return groupBy(db, { name: "weir_shard_of_v1", text: SHARD_OF_SQL, values: [table, items.map(valueOf)] }, "shard", items);
}

/**
 * Groups `items` by the worker holding the shard of their distribution value in `table`: a call
 * delegated by any item of a group runs on that worker, where every item's shard is local. A
 * shard that moves meanwhile is reached from there (then a two-phase commit that worker runs).
 */
export function groupByNode<T>(db: DbOrTx, table: string, items: readonly T[], valueOf: (item: T) => string): Promise<T[][]> {
  return groupBy(db, { name: "weir_node_of_v1", text: NODE_OF_SQL, values: [table, items.map(valueOf)] }, "node", items);
}

/** Groups `items` by the `column` that `lookup` answers for each (a row per item, in order), in the items' order. */
async function groupBy<T>(db: DbOrTx, lookup: RawStatement, column: string, items: readonly T[]): Promise<T[][]> {
  const rows = await runRaw<Record<string, string>>(db, lookup);
  const groups = new Map<string, T[]>();
  rows.forEach((row, i) => {
    const where = String(row[column]);
    const group = groups.get(where);
    if (group) group.push(items[i]!);
    else groups.set(where, [items[i]!]);
  });
  return [...groups.values()];
}

// The SRF in the select list runs lazily: the LIMIT stops it at the first hit (about as many tries as shards).
const SHARD_PEER_SQL = `select v from (select 'shard-' || generate_series(0, 1000000) as v) tried
  where get_shard_id_for_distribution_column($1::regclass, v) = get_shard_id_for_distribution_column($1::regclass, $2::text) limit 1`;

/**
 * A value that `table` places on the same shard as `value` without being it: what a row that
 * must commit beside one key's rows carries, where the key itself may not be kept (audit_log).
 */
export async function shardPeer(db: DbOrTx, table: string, value: string): Promise<string> {
  const [row] = await runRaw<{ v: string }>(db, { name: "weir_shard_peer_v1", text: SHARD_PEER_SQL, values: [table, value] });
  return row!.v;
}

/** A bounded batch on Citus: rows picked by one read over every shard, then removed shard by shard. */
export interface ShardedDelete<Row> {
  /** At most a batch of rows, each with its distribution value. */
  pick: RawStatement;
  /** The distributed table the rows are in. */
  table: string;
  valueOf: (row: Row) => string;
  /** Removes one shard's rows, re-checking on each row what made it picked; returns a row per row removed. */
  deleteOf: (part: Row[]) => RawStatement;
}

/**
 * Runs one batch: the pick, then one delete per shard of the picked rows, each its own transaction
 * on one worker (no two-phase commit). Returns how many rows went.
 */
export async function deleteByShard<Row>(db: DbOrTx, batch: ShardedDelete<Row>): Promise<number> {
  const picked = await runRaw<Row>(db, batch.pick);
  if (picked.length === 0) return 0;
  let removed = 0;
  for (const part of await groupByShard(db, batch.table, picked, batch.valueOf)) removed += (await runRaw(db, batch.deleteOf(part))).length;
  return removed;
}
