import type { RawStatement } from "@/db/raw";

/**
 * One statement decides a set of checks with distinct keys.
 *
 * - `current` reads the committed state in the statement's snapshot: a key whose
 *   stored hash already equals the new one is a duplicate, and nothing is
 *   written or locked for it (no WAL, no commit flush).
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
function decideSql(withHistory: boolean): string {
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
  select ord::int as ord, service_id, message_id, decode(hash_hex, 'hex') as hash, payload, history_depth
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) with ordinality
    as i(service_id, message_id, hash_hex, payload, history_depth, ord)
),
unchanged as (
  select i.ord, s.version, s.last_changed
  from input i join last_seen s on s.service_id = i.service_id and s.message_id = i.message_id
  where s.hash = i.hash
),
written as (
  insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
  select i.service_id, i.message_id, i.hash, 1, now(), now()
  from input i
  where not exists (select 1 from unchanged u where u.ord = i.ord)
  order by i.service_id, i.message_id
  on conflict (service_id, message_id) do update
    set hash = excluded.hash, previous_hash = s.hash, version = s.version + 1, last_changed = excluded.last_changed
    where s.hash is distinct from excluded.hash
  returning s.service_id, s.message_id, s.version, s.last_changed
)${withHistory ? history : ""}
select u.ord, u.version, 'duplicate' as decision, u.last_changed from unchanged u
union all
select i.ord, w.version, case when w.version = 1 then 'new' else 'changed' end, w.last_changed
from written w join input i on i.service_id = w.service_id and i.message_id = w.message_id
`;
}

const DECIDE_SQL = decideSql(true);
const DECIDE_WITHOUT_HISTORY_SQL = decideSql(false);

export interface DecideRow {
  /** 1-based position of the item in the statement's input. */
  ord: number;
  version: number;
  decision: "new" | "changed" | "duplicate";
  /** When the stored version was accepted. */
  last_changed: Date | string;
}

export interface StatementItem {
  serviceId: string;
  messageId: string;
  hash: string;
  /** The payload's JSON text, sent only when the service keeps history. */
  payloadText: string | null;
  historyDepth: number;
}

export function decideStatement(items: readonly StatementItem[]): RawStatement {
  const keepsHistory = items.some((i) => i.historyDepth > 0);
  return {
    name: keepsHistory ? "weir_last_seen_decide_v3" : "weir_last_seen_decide_lean_v3",
    text: keepsHistory ? DECIDE_SQL : DECIDE_WITHOUT_HISTORY_SQL,
    values: [
      items.map((i) => i.serviceId),
      items.map((i) => i.messageId),
      items.map((i) => i.hash),
      items.map((i) => (i.historyDepth > 0 ? i.payloadText : null)),
      items.map((i) => i.historyDepth),
    ],
  };
}

/**
 * One key's check as the routable function of migration 0009: the same rule as the
 * batch statement, in two statements that each name the key. On Citus it runs beside
 * the key's shard; no row back means a concurrent check committed the same hash.
 */
export function decideOneStatement(item: StatementItem): RawStatement {
  return {
    name: "weir_last_seen_decide_one_v2",
    text: "select version, decision, last_changed from weir_last_seen_decide_v2($1, $2, decode($3, 'hex'), $4, $5)",
    values: [item.serviceId, item.messageId, item.hash, item.historyDepth > 0 ? item.payloadText : null, item.historyDepth],
  };
}

/** After a lost race the committed version is read in a fresh snapshot. */
export function currentVersionStatement(serviceId: string, messageId: string): RawStatement {
  return {
    name: "weir_last_seen_version_v2",
    text: "select version, encode(hash, 'hex') as hash, last_changed from last_seen where service_id = $1 and message_id = $2",
    values: [serviceId, messageId],
  };
}
