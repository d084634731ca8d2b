import type { RawStatement } from "@/db/raw";
import { DEFAULT_LOCK_SECONDS, DEFAULT_RETENTION_SECONDS } from "@/db/schema/idempotency-scopes";

/**
 * A released key stays as a tombstone whose lock ended when it began (locked_until =
 * created_at, which no begin writes), so the next begin, of any request, continues its
 * attempt count and a holder of the released attempt stays fenced off. Null-safe: a
 * completed key has no lock.
 */
export const RELEASED = (t: string) => `${t}.locked_until is not distinct from ${t}.created_at`;

// A key past expires_at behaves as absent. The verdict of a stored row, shared by both reads.
const VERDICT = `case
    when ${RELEASED("c")} then 'retry'
    when c.request_hash <> decode($3, 'hex') then 'mismatch'
    when c.status = 'completed' then 'completed'
    when c.locked_until > statement_timestamp() then 'in_progress'
    else 'retry'
  end`;

const columns = (t: string) => `${t}.attempt, ${t}.locked_until, encode(${t}.request_hash, 'hex') as stored_hash,
  ${t}.response_status, ${t}.response_body, ${t}.response_headers, ${t}.created_at, ${t}.completed_at, ${t}.expires_at, ${t}.ref as first_ref`;

/**
 * One statement per begin. `current` reads the committed key in the statement's
 * snapshot: a completed key, a held lock or a different request is answered
 * from it with nothing written or locked. Otherwise the upsert takes the key:
 * it inserts, replaces an expired key, or takes over an expired lock for the same
 * request, or takes a released key for any request; the row lock of ON CONFLICT
 * lets exactly one concurrent caller do so. An expired key starts over at attempt 1,
 * as if it had never been stored; a released one continues its count.
 * No row at all means a concurrent begin changed the key first: read it again.
 */
const BEGIN_SQL = `
with settings as (
  select coalesce(s.lock_seconds, ${DEFAULT_LOCK_SECONDS}) as lock_seconds,
    coalesce(s.retention_seconds, ${DEFAULT_RETENTION_SECONDS}) as retention_seconds
  from (select $1::text as id) wanted left join idempotency_scopes s on s.id = wanted.id
),
current as (
  select * from idempotency_keys c
  where c.scope = $1 and c.key = $2 and c.expires_at > statement_timestamp()
),
written as (
  insert into idempotency_keys as k (scope, key, request_hash, status, attempt, locked_until, created_at, expires_at, ref)
  select $1, $2, decode($3, 'hex'), 'in_progress', 1,
    statement_timestamp() + make_interval(secs => s.lock_seconds), statement_timestamp(),
    statement_timestamp() + make_interval(secs => s.lock_seconds + s.retention_seconds), $4::text
  from settings s
  where not exists (
    select 1 from current c
    where not ${RELEASED("c")}
      and (c.status = 'completed' or c.request_hash <> decode($3, 'hex') or c.locked_until > statement_timestamp()))
  on conflict (scope, key) do update set
    request_hash = excluded.request_hash, status = 'in_progress',
    attempt = case when k.expires_at <= excluded.created_at then 1 else k.attempt + 1 end,
    waiters = k.waiters and k.expires_at > excluded.created_at,
    locked_until = excluded.locked_until, created_at = excluded.created_at, expires_at = excluded.expires_at,
    completed_at = null, response_status = null, response_body = null, response_headers = null, ref = excluded.ref
  where k.expires_at <= excluded.created_at
     or (k.status = 'in_progress' and k.locked_until <= excluded.created_at
         and (k.request_hash = excluded.request_hash or ${RELEASED("k")}))
  returning k.*
)
select 'started' as verdict, ${columns("w")} from written w
union all
select ${VERDICT} as verdict, ${columns("c")} from current c where not exists (select 1 from written)
`;

/** A fresh read of the key, after a begin lost a race. */
const PEEK_SQL = `
select ${VERDICT} as verdict, ${columns("c")}
from idempotency_keys c
where c.scope = $1 and c.key = $2 and c.expires_at > statement_timestamp()
`;

export interface KeyRow {
  verdict: "started" | "mismatch" | "completed" | "in_progress" | "retry";
  attempt: number;
  locked_until: Date | string | null;
  stored_hash: string;
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  expires_at: Date | string;
  /** The ref stored with the begin that took the key. */
  first_ref: string | null;
}

export interface KeyRef {
  scope: string;
  key: string;
  requestHash: string;
  /** The caller's ref, stored when this begin takes the key. */
  ref?: string;
}

export function beginStatement(ref: KeyRef): RawStatement {
  return { name: "weir_idempotency_begin_v4", text: BEGIN_SQL, values: [ref.scope, ref.key, ref.requestHash, ref.ref ?? null] };
}

/**
 * The same begin as one call of a one-key function (db/migrations/0008): on Citus the
 * function runs beside the key's shard, where the statement above would be split.
 */
export function beginOneStatement(ref: KeyRef): RawStatement {
  return {
    name: "weir_idempotency_begin_one_v2",
    // The function returns the columns of a KeyRow, in order.
    text: "select * from weir_idempotency_begin_v2($1, $2, decode($3, 'hex'), $4, $5, $6)",
    values: [ref.scope, ref.key, ref.requestHash, DEFAULT_LOCK_SECONDS, DEFAULT_RETENTION_SECONDS, ref.ref ?? null],
  };
}

export function peekStatement(ref: KeyRef): RawStatement {
  return { name: "weir_idempotency_peek_v4", text: PEEK_SQL, values: [ref.scope, ref.key, ref.requestHash] };
}

/** The live state of a key: read by callers and the console, and to explain why complete or release refused. */
const STATE_SQL = `
select status, attempt, encode(request_hash, 'hex') as stored_hash, locked_until, created_at, completed_at, expires_at,
  response_status, response_body, response_headers, statement_timestamp() as read_at
from idempotency_keys k where scope = $1 and key = $2 and expires_at > statement_timestamp() and not ${RELEASED("k")}
`;

export interface KeyState {
  status: "in_progress" | "completed";
  attempt: number;
  stored_hash: string;
  locked_until: Date | string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  expires_at: Date | string;
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  /** The database clock when the row was read: whether a lock has expired is judged by it. */
  read_at: Date | string;
}

export function keyStateStatement(scope: string, key: string): RawStatement {
  return { name: "weir_idempotency_state_v3", text: STATE_SQL, values: [scope, key] };
}
