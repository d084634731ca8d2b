import type { DecisionOrigin } from "@/lib/telemetry/decisions";
import type { RawStatement } from "@/db/raw";

/**
 * A window start as every claim statement answers it: epoch milliseconds in a float8. A timestamp
 * costs PostgreSQL its text output and Node a parse on every claim of a batch (1.05x the claims/s
 * without); `extract` would give a numeric, slower than the timestamp.
 */
const epochMillis = (timestamp: string) => `date_part('epoch', ${timestamp}) * 1000`;

/**
 * One statement decides claims with distinct keys, against the database clock.
 *
 * - `input` reads each group's TTL and slide (or the defaults) and the record
 *   still inside its window, if any, in the statement's snapshot: those claims
 *   are duplicates and nothing is written or locked for them.
 * - Every other key goes through an upsert whose update fires only when the
 *   committed record's window has expired (a late redelivery): the claim carries
 *   its cutoff (now minus the TTL) as a column, so the conflict clause compares
 *   columns only, which Citus accepts too; the row lock of
 *   ON CONFLICT makes concurrent claims of one key linearizable. A key that is in
 *   neither set lost a race to a claim that committed first: a duplicate.
 * - Rows are inserted in key order so concurrent batches lock in the same order.
 * - A duplicate in a sliding group comes back with `slides`: the caller restarts
 *   its window with slideStatement before answering. Kept out of this statement,
 *   where its steps cost every claim of every group about 5 %, sliding or not.
 * - A duplicate answers when its window started; one that lost a race has no row
 *   in this snapshot (null here, read afterwards by the caller).
 */
const CLAIM_SQL = `
with input as (
  select i.consumer_group, i.message_id, i.ref, t.ttl_seconds, t.slide, r.claimed_at as live_claimed_at, r.ref as live_ref
  from unnest($1::text[], $2::text[], $4::text[]) as i(consumer_group, message_id, ref)
  left join consumer_groups g on g.id = i.consumer_group
  cross join lateral (select coalesce(g.ttl_seconds, $3::int) as ttl_seconds, coalesce(g.slide, false) as slide) t
  left join window_records r on r.consumer_group = i.consumer_group and r.message_id = i.message_id
    and r.claimed_at > statement_timestamp() - make_interval(secs => t.ttl_seconds)
),
written as (
  insert into window_records as r (consumer_group, message_id, claimed_at, claim_cutoff, ref)
  select i.consumer_group, i.message_id, statement_timestamp(), statement_timestamp() - make_interval(secs => i.ttl_seconds), i.ref
  from input i
  where i.live_claimed_at is null
  order by i.consumer_group, i.message_id
  on conflict (consumer_group, message_id) do update
    set claimed_at = excluded.claimed_at, claim_cutoff = excluded.claim_cutoff, previous_claimed_at = r.claimed_at, ref = excluded.ref
    where r.claimed_at <= excluded.claim_cutoff
  returning r.consumer_group, r.message_id, r.claimed_at, r.previous_claimed_at
)
select i.consumer_group, i.message_id, i.ttl_seconds, w.message_id is not null as claimed,
  round((extract(epoch from w.claimed_at - w.previous_claimed_at) - i.ttl_seconds)::numeric, 3)::float8 as late_by_seconds,
  ${epochMillis("coalesce(w.claimed_at, i.live_claimed_at)")} as window_started_at,
  i.slide and i.live_claimed_at is not null as slides,
  case when w.message_id is null then i.live_ref end as first_ref
from input i
left join written w on w.consumer_group = i.consumer_group and w.message_id = i.message_id
`;

export interface ClaimRow {
  consumer_group: string;
  message_id: string;
  ttl_seconds: number;
  claimed: boolean;
  late_by_seconds: number | null;
  /** The claim's window start (epochMillis): now for a new claim, the matched record's for a duplicate (before a slide). */
  window_started_at: number | null;
  /** A duplicate in a sliding group, whose window the caller restarts (batch statement only). */
  slides?: boolean;
  /** A duplicate's: the ref stored with the claim that opened the window. */
  first_ref: string | null;
}

export interface ClaimKey {
  consumerGroup: string;
  messageId: string;
  /** Who asked (the journal's caller, request id and trace); set by the door, never sent to the database. */
  origin?: DecisionOrigin;
  /** Caller data kept with the claim that opens a window, returned with every duplicate inside it. */
  ref?: string;
}

export function claimStatement(items: readonly ClaimKey[], defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_claim_v8",
    text: CLAIM_SQL,
    values: [items.map((i) => i.consumerGroup), items.map((i) => i.messageId), defaultTtlSeconds, items.map((i) => i.ref ?? null)],
  };
}

/** One key's claim as the routable function of migration 0016 (the same rule); Citus runs it beside the key's shard. */
export function claimOneStatement(item: ClaimKey, defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_claim_one_v4",
    text: `select $1::text as consumer_group, $2::text as message_id, c.ttl_seconds, c.claimed, c.late_by_seconds,
      ${epochMillis("c.window_started_at")} as window_started_at, case when c.claimed then null else c.first_ref end as first_ref
      from weir_window_claim_v3($1, $2, $3, $4) c`,
    values: [item.consumerGroup, item.messageId, defaultTtlSeconds, item.ref ?? null],
  };
}

/**
 * The claims of one worker (distinct keys) as one call of weir_window_claim_on_node_v1
 * (db/queries/window-claim-on-node-sql.ts): on Citus it runs on the worker holding their shards, each
 * item through the one-key function. Rows by position (`ord`, 1-based), without their keys.
 */
export function claimOnNodeStatement(items: readonly ClaimKey[], defaultTtlSeconds: number): RawStatement {
  return {
    name: "weir_window_claim_on_node_v1",
    text: `select c.ord, c.ttl_seconds, c.claimed, c.late_by_seconds, ${epochMillis("c.window_started_at")} as window_started_at,
      case when c.claimed then null else c.first_ref end as first_ref
      from weir_window_claim_on_node_v1($1, $2, $3, $4, $5) c`,
    values: [items.map((i) => i.consumerGroup), items.map((i) => i.messageId), defaultTtlSeconds, items.map((i) => i.ref ?? null), items[0]!.messageId],
  };
}

/**
 * Restarts the windows of live records in sliding groups: the duplicates the batch claim statement
 * marked `slides`. Locks the records in key order first, so two batches sliding the same keys wait
 * for each other instead of deadlocking; a record that expired or was released meanwhile is left.
 */
export function slideStatement(items: readonly (ClaimKey & { ttlSeconds: number })[]): RawStatement {
  return {
    name: "weir_window_slide_v1",
    text: `with sliding as (
  select r.consumer_group, r.message_id, i.ttl_seconds
  from unnest($1::text[], $2::text[], $3::int[]) as i(consumer_group, message_id, ttl_seconds)
  join window_records r on r.consumer_group = i.consumer_group and r.message_id = i.message_id
  where r.claimed_at > statement_timestamp() - make_interval(secs => i.ttl_seconds)
  order by r.consumer_group, r.message_id
  for update of r
)
update window_records r set claimed_at = statement_timestamp(), claim_cutoff = statement_timestamp() - make_interval(secs => l.ttl_seconds)
from sliding l
where r.consumer_group = l.consumer_group and r.message_id = l.message_id`,
    values: [items.map((i) => i.consumerGroup), items.map((i) => i.messageId), items.map((i) => i.ttlSeconds)],
  };
}

/** When the records of keys started their window: for duplicates that lost a race to a claim committed after the statement's snapshot. */
export function windowStartsStatement(items: readonly ClaimKey[]): RawStatement {
  return {
    name: "weir_window_starts_v3",
    text: `select r.consumer_group, r.message_id, ${epochMillis("r.claimed_at")} as window_started_at, r.ref as first_ref from unnest($1::text[], $2::text[]) as i(consumer_group, message_id)
      join window_records r on r.consumer_group = i.consumer_group and r.message_id = i.message_id`,
    values: [items.map((i) => i.consumerGroup), items.map((i) => i.messageId)],
  };
}
