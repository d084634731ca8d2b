import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

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
}

const COLUMNS = sql`scope, key, status, attempt, encode(request_hash, 'hex') as request_hash, locked_until,
  response_status, response_body, response_headers, created_at, completed_at, expires_at`;

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
  };
}

/** Every scope that has keys (one index probe per scope) or settings. */
export async function listScopeIds(db: DbOrTx): Promise<string[]> {
  const result = await queryRows<{ scope: string }>(db, sql`
    with recursive s as (
      (select scope from idempotency_keys order by scope limit 1)
      union all
      select (select k.scope from idempotency_keys k where k.scope > s.scope order by k.scope limit 1)
      from s where s.scope is not null
    )
    select scope from s where scope is not null
    union select id from idempotency_scopes
    order by 1`);
  return result.map((row) => row.scope);
}

const STATE: Record<KeyStateFilter, SQL> = {
  in_progress: sql`status = 'in_progress' and expires_at > now()`,
  completed: sql`status = 'completed' and expires_at > now()`,
  expired: sql`expires_at <= now()`,
};

/** A page of a scope's keys in one state, in key order after `afterKey`. */
export async function listIdempotencyKeys(
  db: DbOrTx,
  q: { scope: string; state: KeyStateFilter; afterKey?: string; limit: number },
): Promise<IdempotencyKeyRow[]> {
  const after = q.afterKey === undefined ? sql`` : sql` and key > ${q.afterKey}`;
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select ${COLUMNS} from idempotency_keys
    where scope = ${q.scope} and ${STATE[q.state]}${after}
    order by key limit ${q.limit}`);
  return result.map(toRow);
}

export async function findIdempotencyKey(db: DbOrTx, scope: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const result = await queryRows<Record<string, unknown>>(db,
    sql`select ${COLUMNS} from idempotency_keys where scope = ${scope} and key = ${key}`,
  );
  const row = result[0];
  return row && toRow(row);
}
