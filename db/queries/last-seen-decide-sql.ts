/**
 * One statement decides a set of checks with distinct keys.
 *
 * - `found` reads the committed state in the statement's snapshot: a key whose
 *   stored hash already equals the new one is a duplicate, and nothing is
 *   written or locked for it (no WAL, no commit flush).
 * - Hashes are compared only when made under the same settings (`hash_version`).
 *   A key stored under others is answered `stale`, nothing written; the engine
 *   reads which settings and asks again through the one-key function with the
 *   payload hashed under those too (see lib/dedup/last-seen/decide.ts). Only that first check after
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
export function decideSql(withHistory: boolean, onShard = false): string {
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

/**
 * The batch statement without history for one Citus shard: what weir_last_seen_decide_on_shards
 * (last-seen-decide-on-shards-sql.ts) runs on the shard's own table, a format() string.
 */
export const decideOnShardSql = (): string => decideSql(false, true);
