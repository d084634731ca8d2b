import { sql, type SQL } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import { distinctByProbes } from "./loose-index-scan";

export type KeyStateFilter = "in_progress" | "completed" | "expired";

export interface IdempotencyKeyRow {
  scope: string;
  key: string;
  status: "in_progress" | "completed";
  attempt: number;
  requestHash: string;
  lockedUntil: Date | null;
  responseStatus: number | null;
  responseBody: string | null;
  responseHeaders: Record<string, string> | null;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date;
  /** The caller's ref given with the begin of the current attempt (null: none). */
  ref: string | null;
}

const COLUMNS = sql`scope, key, status, attempt, encode(request_hash, 'hex') as request_hash, locked_until,
  response_status, response_body, response_headers, created_at, completed_at, expires_at, ref`;

const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function toRow(row: Record<string, unknown>): IdempotencyKeyRow {
  return {
    scope: String(row.scope),
    key: String(row.key),
    status: row.status as IdempotencyKeyRow["status"],
    attempt: Number(row.attempt),
    requestHash: String(row.request_hash),
    lockedUntil: date(row.locked_until),
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    responseBody: row.response_body === null ? null : String(row.response_body),
    responseHeaders: (typeof row.response_headers === "string" ? JSON.parse(row.response_headers) : row.response_headers) as
      | Record<string, string>
      | null,
    createdAt: new Date(row.created_at as string),
    completedAt: date(row.completed_at),
    expiresAt: new Date(row.expires_at as string),
    ref: row.ref === null || row.ref === undefined ? null : String(row.ref),
  };
}

/** Every scope that has keys (one index probe per scope) or settings. */
export async function listScopeIds(db: DbOrTx): Promise<string[]> {
  // On Citus (no recursive CTE over a distributed table): one distinct per shard, merged.
  const citus = sql`select distinct scope from idempotency_keys union select id from idempotency_scopes order by 1`;
  const result = await queryRows<{ scope: string }>(db, (await isCitus(db)) ? citus : sql`
    select value as scope from ${distinctByProbes("idempotency_keys", "scope")} s
    union select id from idempotency_scopes
    order by 1`);
  return result.map((row) => row.scope);
}

// A released key is kept as a tombstone (locked_until = created_at, see lib/dedup/idempotency/statements.ts): not in progress.
const STATE: Record<KeyStateFilter, SQL> = {
  in_progress: sql`status = 'in_progress' and locked_until > created_at and expires_at > now()`,
  completed: sql`status = 'completed' and expires_at > now()`,
  expired: sql`expires_at <= now()`,
};

/**
 * A page of a scope's keys in one state, in key order after `afterKey`, or (paging back)
 * the last `limit` keys before `beforeKey`, still returned in key order.
 */
export async function listIdempotencyKeys(
  db: DbOrTx,
  q: { scope: string; state: KeyStateFilter; afterKey?: string; beforeKey?: string; limit: number },
): Promise<IdempotencyKeyRow[]> {
  const back = q.beforeKey !== undefined;
  const bound = back ? sql` and key < ${q.beforeKey}` : q.afterKey === undefined ? sql`` : sql` and key > ${q.afterKey}`;
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select ${COLUMNS} from idempotency_keys
    where scope = ${q.scope} and ${STATE[q.state]}${bound}
    order by key ${back ? sql`desc` : sql`asc`} limit ${q.limit}`);
  const rows = result.map(toRow);
  return back ? rows.reverse() : rows;
}

/**
 * A scope's keys in one state, counted up to `cap` + 1: the in-progress count walks the partial
 * in-progress index, the others stop after `cap` + 1 matching rows of the primary key.
 */
export async function countIdempotencyKeys(db: DbOrTx, q: { scope: string; state: KeyStateFilter; cap: number }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`
    select count(*)::int as n from (select 1 from idempotency_keys where scope = ${q.scope} and ${STATE[q.state]} limit ${q.cap + 1}) k`);
  return Number(row?.n ?? 0);
}

export async function findIdempotencyKey(db: DbOrTx, scope: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const result = await queryRows<Record<string, unknown>>(db,
    sql`select ${COLUMNS} from idempotency_keys where scope = ${scope} and key = ${key} and locked_until is distinct from created_at`,
  );
  const row = result[0];
  return row && toRow(row);
}

// Stuck: in progress (not a released tombstone, not expired) and its lock has run out, so its caller died.
const STUCK = sql`status = 'in_progress' and locked_until > created_at and locked_until <= now() and expires_at > now()`;

export interface StuckKeyRow {
  key: string;
  attempt: number;
  createdAt: Date;
  lockedUntil: Date;
}

/** A scope's stuck keys: how many, and the oldest `sampleSize` of them. */
export async function findStuckKeys(db: DbOrTx, scope: string, sampleSize: number): Promise<{ count: number; sample: StuckKeyRow[] }> {
  const [counted, sample] = await Promise.all([
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from idempotency_keys where scope = ${scope} and ${STUCK}`),
    queryRows<Record<string, unknown>>(db, sql`
      select key, attempt, created_at, locked_until from idempotency_keys
      where scope = ${scope} and ${STUCK} order by locked_until, key limit ${sampleSize}`),
  ]);
  return {
    count: Number(counted[0]?.n ?? 0),
    sample: sample.map((row) => ({ key: String(row.key), attempt: Number(row.attempt), createdAt: new Date(row.created_at as string), lockedUntil: new Date(row.locked_until as string) })),
  };
}

/**
 * Releases every stuck key of a scope as `release` does one (the key becomes a tombstone, its
 * attempt kept, so a retry starts the next attempt); a key taken over meanwhile is no longer stuck.
 */
export async function releaseStuckKeys(db: DbOrTx, scope: string): Promise<{ key: string; attempt: number; waiters: boolean }[]> {
  const rows = await queryRows<Record<string, unknown>>(db, sql`
    update idempotency_keys set locked_until = created_at
    where scope = ${scope} and ${STUCK}
    returning key, attempt, waiters`);
  return rows.map((row) => ({ key: String(row.key), attempt: Number(row.attempt), waiters: row.waiters === true }));
}
