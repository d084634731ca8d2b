import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { purgeExpiredRowsCitus, resetStepCitus, restoreStepCitus } from "./console-reset-steps-citus";
import { selectionOf, selectionWhere, type ResetBatchRow } from "./reset";
import { queryRows } from "./console-rows";
import type { StepResult } from "./console-reset-step-result";

const toStep = (row: Record<string, unknown> | undefined): StepResult => ({
  scanned: Number(row?.scanned ?? 0),
  moved: Number(row?.moved ?? 0),
});

/**
 * Resets the next batch of a selection in one statement (its own short
 * transaction): rows are locked in key order after the cursor, copied into
 * reset_rows with their payload versions, deleted, and the batch's counters
 * and cursor move in the same statement.
 */
export async function resetStep(db: DbOrTx, batch: ResetBatchRow): Promise<StepResult> {
  if (await isCitus(db)) return resetStepCitus(db, batch);
  const where = await selectionWhere(db, selectionOf(batch), batch.cutoff);
  const cursor = batch.cursor ?? "";
  const victims = (table: string) => sql`
    victims as (
      select t.message_id from ${sql.raw(table)} t
      where ${where} and t.message_id > ${cursor}
      order by t.message_id limit ${batch.batchSize}
      for update of t
    )`;
  const progress = sql`
    progress as (
      update reset_batches set affected = affected + (select count(*) from gone),
        cursor = greatest(cursor, (select max(message_id) from victims)), heartbeat_at = now()
      where id = ${batch.id}
    )
    select (select count(*) from victims)::int as scanned, (select count(*) from gone)::int as moved`;
  const statement =
    batch.kind === "last_seen"
      ? sql`with ${victims("last_seen")},
    gone as (
      delete from last_seen d using victims v
      where d.service_id = ${batch.subject} and d.message_id = v.message_id
      returning d.message_id, d.hash, d.hash_version, d.version, d.first_seen, d.last_changed, d.ref
    ),
    versions as (
      delete from payload_versions p using gone g
      where p.service_id = ${batch.subject} and p.message_id = g.message_id
      returning p.message_id, p.version, p.hash, p.payload, p.recorded_at
    ),
    kept as (
      select message_id, jsonb_agg(jsonb_build_object('version', version, 'hash', encode(hash, 'hex'),
        'payload', payload, 'recordedAt', recorded_at) order by version) as versions
      from versions group by message_id
    ),
    saved as (
      insert into reset_rows (batch_id, message_id, hash, hash_version, version, first_seen, last_changed, versions, ref)
      select ${batch.id}, g.message_id, g.hash, g.hash_version, g.version, g.first_seen, g.last_changed, k.versions, g.ref
      from gone g left join kept k on k.message_id = g.message_id
    ),
    ${progress}`
      : sql`with ${victims("window_records")},
    gone as (
      delete from window_records d using victims v
      where d.consumer_group = ${batch.subject} and d.message_id = v.message_id
      returning d.message_id, d.claimed_at, d.previous_claimed_at, d.ref
    ),
    saved as (
      insert into reset_rows (batch_id, message_id, claimed_at, previous_claimed_at, ref)
      select ${batch.id}, message_id, claimed_at, previous_claimed_at, ref from gone
    ),
    ${progress}`;
  const result = await queryRows<Record<string, unknown>>(db, statement);
  return toStep(result[0]);
}

/**
 * Puts back the next batch of a reset's kept rows after the cursor, consuming
 * them; the cursor spares each batch the rows already consumed (dead index
 * entries until vacuum). A key that has state again (a replay got there
 * first) keeps it and counts as skipped; its old payload versions stay out too.
 */
export async function restoreStep(db: DbOrTx, batch: ResetBatchRow, limit: number): Promise<StepResult> {
  if (await isCitus(db)) return restoreStepCitus(db, batch, limit);
  // One index probe per key (a walk, not a range scan): right after a bulk reset
  // reset_rows has no statistics yet, and a range query would be planned as a
  // scan and sort of every kept row, for every batch.
  const picked = sql`
    recursive walk(message_id, n) as (
      (select message_id, 1 from reset_rows where batch_id = ${batch.id} and message_id > ${batch.cursor ?? ""}
       order by message_id limit 1)
      union all
      select (select r.message_id from reset_rows r where r.batch_id = ${batch.id} and r.message_id > w.message_id
              order by r.message_id limit 1), w.n + 1
      from walk w where w.message_id is not null and w.n < ${limit}
    ),
    picked as (
      delete from reset_rows r using walk w
      where r.batch_id = ${batch.id} and r.message_id = w.message_id
      returning r.*
    )`;
  const progress = sql`
    progress as (
      update reset_batches set restored = restored + (select count(*) from restored),
        skipped = skipped + (select count(*) from picked) - (select count(*) from restored), heartbeat_at = now(),
        cursor = greatest(cursor, (select max(message_id) from walk))
      where id = ${batch.id}
    )
    select (select count(message_id) from walk)::int as scanned, (select count(*) from restored)::int as moved`;
  const statement =
    batch.kind === "last_seen"
      ? sql`with ${picked},
    restored as (
      insert into last_seen (service_id, message_id, hash, hash_version, version, first_seen, last_changed, ref)
      select ${batch.subject}, p.message_id, p.hash, coalesce(p.hash_version, 1), p.version, p.first_seen, p.last_changed, p.ref
      from picked p order by p.message_id
      on conflict (service_id, message_id) do nothing
      returning message_id
    ),
    versions as (
      insert into payload_versions (service_id, message_id, version, hash, payload, recorded_at)
      select ${batch.subject}, p.message_id, (v ->> 'version')::bigint, decode(v ->> 'hash', 'hex'),
        v ->> 'payload', (v ->> 'recordedAt')::timestamptz
      from picked p join restored r on r.message_id = p.message_id
      cross join lateral jsonb_array_elements(coalesce(p.versions, '[]'::jsonb)) v
      on conflict (service_id, message_id, version) do nothing
    ),
    ${progress}`
      : sql`with ${picked},
    restored as (
      insert into window_records (consumer_group, message_id, claimed_at, previous_claimed_at, ref)
      select ${batch.subject}, p.message_id, p.claimed_at, p.previous_claimed_at, p.ref
      from picked p order by p.message_id
      on conflict (consumer_group, message_id) do nothing
      returning message_id
    ),
    ${progress}`;
  const result = await queryRows<Record<string, unknown>>(db, statement);
  return toStep(result[0]);
}

/** Removes kept rows of expired resets in bounded statements, then marks those resets expired. */
export async function purgeExpiredRows(db: DbOrTx, limit: number): Promise<number> {
  if (await isCitus(db)) return purgeExpiredRowsCitus(db, limit);
  const result = await queryRows<{ n: number }>(db, sql`
    with gone as (
      delete from reset_rows where ctid = any(array(
        select r.ctid from reset_batches b join reset_rows r on r.batch_id = b.id
        where b.expires_at < now() and b.status in ('done', 'failed')
        limit ${limit}))
      returning 1
    )
    select count(*)::int as n from gone`);
  const removed = Number(result[0]?.n ?? 0);
  if (removed < limit) {
    await db.execute(sql`
      update reset_batches b set status = 'expired'
      where b.expires_at < now() and b.status in ('done', 'failed')
        and not exists (select 1 from reset_rows r where r.batch_id = b.id)`);
  }
  return removed;
}
