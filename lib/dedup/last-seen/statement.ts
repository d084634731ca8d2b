import type { RawStatement } from "@/db/raw";

/**
 * One statement decides a set of checks with distinct keys.
 *
 * - `found` reads the committed state in the statement's snapshot: a key whose
 *   stored hash already equals the new one is a duplicate, and nothing is
 *   written or locked for it (no WAL, no commit flush).
 * - Hashes are compared only when made under the same settings (`hash_version`).
 *   A key stored under others is answered `stale`, nothing written; the engine
 *   reads which settings and asks again through the one-key function with the
 *   payload hashed under those too (see decide.ts). Only that first check after
 *   a settings change pays for it: the answers carry no more than before.
 * - Every other key goes through an upsert whose update fires only when the hash
 *   is distinct. The row lock of ON CONFLICT makes concurrent first checks
 *   linearizable: exactly one inserts; the others re-check the committed row.
 * - A key in neither set lost a race to an identical hash: also a duplicate.
 * - Rows are inserted in key order so concurrent batches lock in the same order.
 * - Rows come back by position in the input (`ord`), not by key: the keys would
 *   only travel back to be parsed and matched again.
 * - Each row says when the stored version was accepted (a duplicate's "why"); a
 *   change keeps the hash it replaced (`previous_hash`), so it can be reverted.
 *
 * Two variants: the history CTEs (keep the payload, prune old versions) are
 * left out when no item keeps history, the usual case on the hot path.
 */
function decideSql(withHistory: boolean, onShard = false): string {
  // On one Citus shard (decideOnShardSql): the shard's own table, named by format()'s %1$I, and
  // only the items of that shard (each item's shard in $8, the shard in $9).
  const table = onShard ? "%1$I" : "last_seen";
  const shardColumn = onShard ? ", $8::bigint[]" : "";
  const shardName = onShard ? ", shard" : "";
  const shardFilter = onShard ? "\n  where i.shard = $9" : "";
  const history = `,
kept as (
  insert into payload_versions (service_id, message_id, version, hash, payload, recorded_at)
  select w.service_id, w.message_id, w.version, i.hash, i.payload, w.last_changed
  from written w join input i on i.service_id = w.service_id and i.message_id = w.message_id
  where i.history_depth > 0 and i.payload is not null
  -- a key that was reset starts again at version 1; its old versions give way
  on conflict (service_id, message_id, version) do update
    set hash = excluded.hash, payload = excluded.payload, recorded_at = excluded.recorded_at
),
pruned as (
  delete from payload_versions p
  using written w join input i on i.service_id = w.service_id and i.message_id = w.message_id
  where p.service_id = w.service_id and p.message_id = w.message_id
    and w.version > 1 and p.version <= w.version - greatest(i.history_depth, 1)
)`;
  return `
with input as (
  select ord::int as ord, service_id, message_id, decode(hash_hex, 'hex') as hash, hash_version, payload, history_depth, ref
  from unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::int[], $7::text[]${shardColumn}) with ordinality
    as i(service_id, message_id, hash_hex, hash_version, payload, history_depth, ref${shardName}, ord)${shardFilter}
),
found as materialized (
  select i.ord, s.version, s.last_changed, s.ref as first_ref,
    case when s.hash_version <> i.hash_version then 'stale' else 'duplicate' end as decision
  from input i join ${table} s on s.service_id = i.service_id and s.message_id = i.message_id
  -- only the keys answered here: a change is not carried through the CTE for nothing
  where s.hash_version <> i.hash_version or s.hash = i.hash
),
written as (
  insert into ${table} as s (service_id, message_id, hash, hash_version, version, first_seen, last_changed, ref)
  select i.service_id, i.message_id, i.hash, i.hash_version, 1, now(), now(), i.ref
  from input i
  where not exists (select 1 from found f where f.ord = i.ord)
  order by i.service_id, i.message_id
  on conflict (service_id, message_id) do update
    set hash = excluded.hash, hash_version = excluded.hash_version, previous_hash = s.hash,
      previous_hash_version = s.hash_version, previous_last_changed = s.last_changed, version = s.version + 1,
      last_changed = excluded.last_changed, previous_ref = s.ref, ref = excluded.ref
    where s.hash_version = excluded.hash_version and s.hash is distinct from excluded.hash
  returning s.service_id, s.message_id, s.version, s.last_changed
)${withHistory ? history : ""}
select f.ord, f.version, f.decision, f.last_changed, f.first_ref from found f
union all
select i.ord, w.version, case when w.version = 1 then 'new' else 'changed' end, w.last_changed, null
from written w join input i on i.service_id = w.service_id and i.message_id = w.message_id
`;
}

const DECIDE_SQL = decideSql(true);
const DECIDE_WITHOUT_HISTORY_SQL = decideSql(false);

/**
 * The batch statement without history for one Citus shard: what weir_last_seen_decide_on_shards
 * (db/queries/last-seen-decide-on-shards-sql.ts) runs on the shard's own table, a format() string.
 */
export const decideOnShardSql = (): string => decideSql(false, true);

export interface DecideRow {
  /** 1-based position of the item in the statement's input. */
  ord: number;
  version: number;
  /** `stale`: the key's hash was made under other hash settings; nothing was written. */
  decision: "new" | "changed" | "duplicate" | "stale";
  /** When the stored version was accepted. */
  last_changed: Date | string;
  /** The ref stored with that version (read for duplicates only). */
  first_ref: string | null;
}

export interface StatementItem {
  serviceId: string;
  messageId: string;
  hash: string;
  /** The service's hash settings version `hash` was made under. */
  hashVersion: number;
  /**
   * Asking again for a key stored under older settings: the payload hashed under those too.
   * Equal to the stored hash is a duplicate; the key moves to `hashVersion` only when `upgrade`
   * says that is exact (the newer settings hash a part of what the older ones did).
   */
  stored?: { hash: string; hashVersion: number; upgrade: boolean };
  /** The payload's JSON text, sent only when the service keeps history. */
  payloadText: string | null;
  historyDepth: number;
  /** The caller's ref, stored with the version this check accepts. */
  ref: string | null;
}

export function decideStatement(items: readonly StatementItem[]): RawStatement {
  const keepsHistory = items.some((i) => i.historyDepth > 0);
  return {
    name: keepsHistory ? "weir_last_seen_decide_v6" : "weir_last_seen_decide_lean_v6",
    text: keepsHistory ? DECIDE_SQL : DECIDE_WITHOUT_HISTORY_SQL,
    values: columnsOf(items),
  };
}

/** The items as the column arrays both batch forms take: keys, hashes (hex), settings versions, payloads, depths, refs. */
function columnsOf(items: readonly StatementItem[]): unknown[][] {
  return [
    items.map((i) => i.serviceId),
    items.map((i) => i.messageId),
    items.map((i) => i.hash),
    items.map((i) => i.hashVersion),
    items.map((i) => (i.historyDepth > 0 ? i.payloadText : null)),
    items.map((i) => i.historyDepth),
    items.map((i) => i.ref),
  ];
}

/**
 * One key's check as the routable function of migration 0016: the same rule as the
 * batch statement, in statements that each name the key, and the only one that takes
 * `stored` (the second ask for a key stored under older settings). On Citus it runs
 * beside the key's shard; no row back means a concurrent check committed the same hash.
 */
export function decideOneStatement(item: StatementItem): RawStatement {
  const asked = [item.serviceId, item.messageId, item.hash, item.hashVersion, item.historyDepth > 0 ? item.payloadText : null, item.historyDepth, item.ref];
  const call = (secondAsk: string) => `select version, decision, last_changed, first_ref
    from weir_last_seen_decide_v5($1, $2, decode($3, 'hex'), $4, $5, $6, ${secondAsk}, $7)`;
  if (!item.stored) {
    // The usual ask, as lean as before hash settings versions: the second-ask arguments are constants.
    return { name: "weir_last_seen_decide_one_plain_v6", text: call("null, null, false"), values: asked };
  }
  return {
    name: "weir_last_seen_decide_one_v6",
    text: call("decode($8, 'hex'), $9, $10"),
    values: [...asked, item.stored.hash, item.stored.hashVersion, item.stored.upgrade],
  };
}

/**
 * The checks of one worker (distinct keys) as one call of weir_last_seen_decide_on_shards_v1
 * (db/queries/last-seen-decide-on-shards-sql.ts): on Citus it runs on the worker holding their
 * shards, one statement per shard. Rows as the batch statement's, by position.
 */
export function decideOnShardsStatement(items: readonly StatementItem[]): RawStatement {
  return {
    name: "weir_last_seen_decide_on_shards_v1",
    text: `select ord, version, decision, last_changed, first_ref
      from weir_last_seen_decide_on_shards_v1($1, $2, $3, $4, $5, $6, $7, $8)`,
    values: [...columnsOf(items), items[0]!.messageId],
  };
}

/** After a lost race the committed version is read in a fresh snapshot. */
export function currentVersionStatement(serviceId: string, messageId: string): RawStatement {
  return {
    name: "weir_last_seen_version_v4",
    text: "select version, encode(hash, 'hex') as hash, hash_version, last_changed, ref as first_ref from last_seen where service_id = $1 and message_id = $2",
    values: [serviceId, messageId],
  };
}

/** The payload kept for one version of a key (history), to hash it under other settings. */
export function keptPayloadStatement(serviceId: string, messageId: string, version: number): RawStatement {
  return {
    name: "weir_last_seen_kept_payload_v1",
    text: "select payload from payload_versions where service_id = $1 and message_id = $2 and version = $3",
    values: [serviceId, messageId, version],
  };
}

/**
 * Moves a key's stored hash to newer hash settings: the accepted payload's hash under them, only
 * while the key is still at that version with the hash that payload has under its own settings.
 */
export function rebaseStatement(o: {
  serviceId: string;
  messageId: string;
  version: number;
  from: { hash: string; hashVersion: number };
  hash: string;
  hashVersion: number;
}): RawStatement {
  return {
    name: "weir_last_seen_rebase_v1",
    text: `update last_seen set hash = decode($4, 'hex'), hash_version = $5
      where service_id = $1 and message_id = $2 and version = $3
        and hash = decode($6, 'hex') and hash_version = $7 and hash_version < $5
      returning version`,
    values: [o.serviceId, o.messageId, o.version, o.hash, o.hashVersion, o.from.hash, o.from.hashVersion],
  };
}
