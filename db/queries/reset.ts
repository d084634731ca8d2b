import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { resetBatches } from "../schema";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { startsWith } from "./console-prefix";
import { queryRows } from "./console-rows";

export type ResetKind = "last_seen" | "window";
export type ResetBatchRow = typeof resetBatches.$inferSelect;
export type NewResetBatch = typeof resetBatches.$inferInsert;

export interface ResetSelection {
  kind: ResetKind;
  subject: string;
  mode: "key" | "list" | "filter";
  messageIds?: string[];
  prefix?: string;
  from?: Date;
  to?: Date;
}

/** Table, subject column and time column of each kind, always aliased `t`. */
// `newestFirst` spells each table's index order exactly (NULLS included), so a
// sample reads the first rows of the index instead of sorting the whole subject.
export const RESET_TABLES = {
  last_seen: {
    table: sql.raw("last_seen"),
    subject: sql.raw("t.service_id"),
    time: sql.raw("t.last_changed"),
    newestFirst: sql.raw("t.last_changed desc nulls last, t.message_id"),
  },
  window: {
    table: sql.raw("window_records"),
    subject: sql.raw("t.consumer_group"),
    time: sql.raw("t.claimed_at"),
    newestFirst: sql.raw("t.claimed_at desc nulls first, t.message_id"),
  },
} as const;

/** The rows a selection covers; rows changed after `cutoff` (default: now) are never part of it. */
export async function selectionWhere(db: DbOrTx, s: ResetSelection, cutoff?: Date): Promise<SQL> {
  const t = RESET_TABLES[s.kind];
  const where: SQL[] = [sql`${t.subject} = ${s.subject}`];
  where.push(cutoff ? sql`${t.time} <= ${cutoff.toISOString()}::timestamptz` : sql`${t.time} <= now()`);
  if (s.mode !== "filter") where.push(sql`t.message_id = any(${sql.param(s.messageIds ?? [])}::text[])`);
  if (s.mode === "filter" && s.prefix) where.push(await startsWith(db, sql.raw("t.message_id"), s.prefix));
  if (s.mode === "filter" && s.from) where.push(sql`${t.time} >= ${s.from.toISOString()}::timestamptz`);
  if (s.mode === "filter" && s.to) where.push(sql`${t.time} < ${s.to.toISOString()}::timestamptz`);
  return sql.join(where, sql` and `);
}

export async function countSelection(db: DbOrTx, s: ResetSelection): Promise<number> {
  const t = RESET_TABLES[s.kind];
  const where = await selectionWhere(db, s);
  const result = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${t.table} t where ${where}`);
  return Number(result[0]?.n ?? 0);
}

export interface SampleRow {
  messageId: string;
  at: Date;
  version: number | null;
}

/** The most recently changed rows of a selection, for the dry run. */
export async function sampleSelection(db: DbOrTx, s: ResetSelection, limit: number): Promise<SampleRow[]> {
  const t = RESET_TABLES[s.kind];
  const version = s.kind === "last_seen" ? sql.raw("t.version") : sql.raw("null::bigint");
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select t.message_id, ${t.time} as at, ${version} as version from ${t.table} t
    where ${await selectionWhere(db, s)} order by ${t.newestFirst} limit ${limit}`);
  return result.map((row) => ({
    messageId: String(row.message_id),
    at: new Date(row.at as string),
    version: row.version === null ? null : Number(row.version),
  }));
}

export function selectionOf(batch: ResetBatchRow): ResetSelection {
  return {
    kind: batch.kind,
    subject: batch.subject,
    mode: batch.mode,
    messageIds: batch.messageIds ?? undefined,
    prefix: batch.prefix ?? undefined,
    from: batch.changedFrom ?? undefined,
    to: batch.changedTo ?? undefined,
  };
}

export async function insertBatch(db: DbOrTx, values: NewResetBatch): Promise<ResetBatchRow> {
  const [row] = await db.insert(resetBatches).values(values).returning();
  return row!;
}

export async function findBatch(db: DbOrTx, id: number, lock = false): Promise<ResetBatchRow | undefined> {
  const query = db.select().from(resetBatches).where(eq(resetBatches.id, id));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function listBatches(
  db: DbOrTx,
  filter: { kind?: ResetKind; subject?: string; limit: number },
): Promise<ResetBatchRow[]> {
  const where: SQL[] = [];
  if (filter.kind) where.push(eq(resetBatches.kind, filter.kind));
  if (filter.subject) where.push(eq(resetBatches.subject, filter.subject));
  return db
    .select()
    .from(resetBatches)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(resetBatches.id))
    .limit(filter.limit);
}

/** Moves a batch from one status to the next; returns the row only if this caller made the move. */
export async function moveBatch(
  db: DbOrTx,
  id: number,
  from: ResetBatchRow["status"][],
  set: Partial<NewResetBatch>,
): Promise<ResetBatchRow | undefined> {
  const [row] = await db
    .update(resetBatches)
    .set(set)
    .where(and(eq(resetBatches.id, id), inArray(resetBatches.status, from)))
    .returning();
  return row;
}

/** Takes over a running batch whose runner stopped beating (process died or store outage). */
export async function takeOverStale(db: DbOrTx, id: number, staleSeconds: number): Promise<boolean> {
  const result = await queryRows(db, sql`
    update reset_batches set heartbeat_at = now()
    where id = ${id} and status in ('running', 'undoing')
      and heartbeat_at < now() - make_interval(secs => ${staleSeconds})
    returning id`);
  return result.length > 0;
}

/**
 * The store's clock at the start of the transaction: rows are stamped with it, so cutoffs use it too.
 * On Citus the transaction reads many shards and then writes reference tables (the batch, the audit
 * row), which Citus allows only when the shards were read over one connection per worker.
 */
export async function transactionStart(db: DbOrTx): Promise<Date> {
  if (await isCitus(db)) await queryRows(db, sql`set local citus.multi_shard_modify_mode to 'sequential'`);
  const result = await queryRows<{ now: string | Date }>(db, sql`select now() as now`);
  return new Date(result[0]!.now);
}

/** A selection's rows in message id order after `afterId`: the whole selection, read in keyset chunks (CSV download). */
export async function selectionChunk(db: DbOrTx, s: ResetSelection, afterId: string | undefined, limit: number): Promise<SampleRow[]> {
  const t = RESET_TABLES[s.kind];
  const version = s.kind === "last_seen" ? sql.raw("t.version") : sql.raw("null::bigint");
  const after = afterId === undefined ? sql`` : sql` and t.message_id > ${afterId}`;
  const result = await queryRows<Record<string, unknown>>(db, sql`
    select t.message_id, ${t.time} as at, ${version} as version from ${t.table} t
    where ${await selectionWhere(db, s)}${after} order by t.message_id limit ${limit}`);
  return result.map((row) => ({
    messageId: String(row.message_id),
    at: new Date(row.at as string),
    version: row.version === null ? null : Number(row.version),
  }));
}
