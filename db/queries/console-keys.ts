import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { startsWith } from "./console-prefix";
import { queryRows } from "./console-rows";

export interface KeyCursor {
  /** last_changed as exact text (microseconds), so no key is skipped or repeated across pages. */
  lastChanged: string;
  messageId: string;
}

export interface KeyPageQuery {
  serviceId: string;
  prefix?: string;
  changedFrom?: Date;
  changedTo?: Date;
  minVersion?: number;
  sort: "desc" | "asc";
  after?: KeyCursor;
  /** Paging backwards: the rows just before this one, in the same order as a forward page. */
  before?: KeyCursor;
  limit: number;
}

export interface KeyListRow {
  messageId: string;
  version: number;
  hash: string;
  /** The service's hash settings version the hash was made under: hashes of other versions are not comparable. */
  hashVersion: number;
  firstSeen: Date;
  lastChanged: Date;
  cursor: KeyCursor;
}

const EXACT_TS = sql`to_char(last_changed at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of a service's keys in last-change order, keyset-paginated through
 * last_seen_by_last_changed (service_id, last_changed desc, message_id). The
 * cursor repeats its time bound alone so the scan starts at the cursor.
 */
export async function listKeysPage(db: DbOrTx, q: KeyPageQuery): Promise<{ rows: KeyListRow[]; hasMore: boolean }> {
  const where = await keyFilters(db, q);
  const cursor = q.before ?? q.after;
  // Going back reads the index the other way from the cursor, then turns the page round.
  const desc = (q.sort === "desc") !== (q.before !== undefined);
  if (cursor) {
    const ts = sql`${cursor.lastChanged}::timestamptz`;
    where.push(
      desc
        ? sql`last_changed <= ${ts} and (last_changed < ${ts} or message_id > ${cursor.messageId})`
        : sql`last_changed >= ${ts} and (last_changed > ${ts} or message_id < ${cursor.messageId})`,
    );
  }
  // The index is (service_id, last_changed DESC NULLS LAST, message_id): the NULLS clauses must match it
  // (or its backward scan) for the page to be read in index order; a bare DESC means NULLS FIRST and sorts everything.
  const order = desc ? sql`last_changed desc nulls last, message_id asc` : sql`last_changed asc nulls first, message_id desc`;
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select message_id, version, encode(hash, 'hex') as hash, hash_version, first_seen, last_changed, ${EXACT_TS} as exact_ts
    from last_seen
    where ${sql.join(where, sql` and `)}
    order by ${order}
    limit ${q.limit + 1}`);
  const page = result.slice(0, q.limit);
  if (q.before) page.reverse();
  const rows = page.map((row) => ({
    messageId: String(row.message_id),
    version: Number(row.version),
    hash: String(row.hash),
    hashVersion: Number(row.hash_version),
    firstSeen: new Date(row.first_seen as string),
    lastChanged: new Date(row.last_changed as string),
    cursor: { lastChanged: String(row.exact_ts), messageId: String(row.message_id) },
  }));
  return { rows, hasMore: result.length > q.limit };
}

async function keyFilters(db: DbOrTx, q: Omit<KeyPageQuery, "sort" | "limit">): Promise<SQL[]> {
  const where: SQL[] = [sql`service_id = ${q.serviceId}`];
  if (q.prefix) where.push(await startsWith(db, sql.raw("message_id"), q.prefix));
  if (q.changedFrom) where.push(sql`last_changed >= ${q.changedFrom.toISOString()}::timestamptz`);
  if (q.changedTo) where.push(sql`last_changed < ${q.changedTo.toISOString()}::timestamptz`);
  if (q.minVersion !== undefined && q.minVersion > 1) where.push(sql`version >= ${q.minVersion}`);
  return where;
}

/**
 * How many keys match, counted up to `cap` (an index range scan of at most `cap` rows),
 * so that the count stays cheap on a service with millions of keys; `capped` means "at least".
 */
export async function countKeys(db: DbOrTx, q: Omit<KeyPageQuery, "sort" | "limit" | "after" | "before">, cap: number) {
  const where = await keyFilters(db, q);
  const [row] = await queryRows<{ n: number }>(db, sql`
    select count(*)::int as n from (select 1 from last_seen where ${sql.join(where, sql` and `)} limit ${cap + 1}) matching`);
  const n = Number(row?.n ?? 0);
  return { count: Math.min(n, cap), capped: n > cap };
}

/** The ids of the keys the key browser's filters match, in id order, at most `limit`: what its "Reset these keys" resets. */
export async function listMatchingKeyIds(db: DbOrTx, q: Omit<KeyPageQuery, "sort" | "limit" | "after" | "before">, limit: number): Promise<string[]> {
  const where = await keyFilters(db, q);
  const rows = await queryRows<{ message_id: string }>(db, sql`
    select message_id from last_seen where ${sql.join(where, sql` and `)} and last_changed <= now() order by message_id limit ${limit}`);
  return rows.map((row) => String(row.message_id));
}
