import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";
import { selectionOf, selectionWhere, type ResetBatchRow } from "./reset";
import type { StepResult } from "./console-reset-step-result";

/*
 * Reset and undo steps on Citus. The one-statement steps chain data-modifying
 * CTEs across distributed and reference tables and lock with FOR UPDATE, which
 * Citus does not plan; here a step is one short transaction of plain statements
 * (multi-shard reads and deletes, then the batch row). Instead of the row lock,
 * the delete re-applies the selection (cutoff included) to each row it removes,
 * so a key a replay changed after the reset started still stays.
 */

async function sequential(tx: DbOrTx): Promise<void> {
  // Reference-table writes after multi-shard work need one connection per worker.
  await queryRows(tx, sql`set local citus.multi_shard_modify_mode to 'sequential'`);
}

const hex = (value: unknown) => (value ? Buffer.from(value as Buffer).toString("hex") : null);

export async function resetStepCitus(db: DbOrTx, batch: ResetBatchRow): Promise<StepResult> {
  const where = await selectionWhere(db, selectionOf(batch), batch.cutoff);
  const lastSeen = batch.kind === "last_seen";
  const table = sql.raw(lastSeen ? "last_seen" : "window_records");
  return db.transaction(async (tx) => {
    await sequential(tx);
    const victims = await queryRows<{ message_id: string }>(tx, sql`
      select t.message_id from ${table} t where ${where} and t.message_id > ${batch.cursor ?? ""}
      order by t.message_id limit ${batch.batchSize}`);
    const ids = victims.map((v) => v.message_id);
    let moved = 0;
    if (ids.length > 0) {
      const gone = await queryRows<Record<string, unknown>>(tx, sql`
        delete from ${table} t where ${where} and t.message_id = any(${sql.param(ids)}::text[])
        returning t.*`);
      moved = gone.length;
      const kept = lastSeen ? await takeVersions(tx, batch.subject, gone) : new Map<string, unknown>();
      const rows = gone.map((g) => ({
        message_id: g.message_id,
        hash: hex(g.hash),
        hash_version: g.hash_version ?? null,
        version: g.version ?? null,
        first_seen: g.first_seen ?? null,
        last_changed: g.last_changed ?? null,
        versions: kept.get(String(g.message_id)) ?? null,
        claimed_at: g.claimed_at ?? null,
        previous_claimed_at: g.previous_claimed_at ?? null,
        ref: g.ref ?? null,
      }));
      if (rows.length > 0) {
        await queryRows(tx, sql`
          insert into reset_rows (batch_id, message_id, hash, hash_version, version, first_seen, last_changed, versions, claimed_at, previous_claimed_at, ref)
          select ${batch.id}::bigint, r.message_id, decode(r.hash, 'hex'), r.hash_version, r.version, r.first_seen, r.last_changed, r.versions,
            r.claimed_at, r.previous_claimed_at, r.ref
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(message_id text, hash text, hash_version int, version bigint,
            first_seen timestamptz, last_changed timestamptz, versions jsonb, claimed_at timestamptz, previous_claimed_at timestamptz, ref text)`);
      }
    }
    await queryRows(tx, sql`
      update reset_batches set affected = affected + ${moved}::int, heartbeat_at = now(),
        cursor = greatest(cursor, ${ids.at(-1) ?? null}::text)
      where id = ${batch.id}`);
    return { scanned: ids.length, moved };
  });
}

/** Removes the payload versions of reset keys; returns them per key, as reset_rows keeps them. */
async function takeVersions(tx: DbOrTx, serviceId: string, gone: Record<string, unknown>[]): Promise<Map<string, unknown>> {
  if (gone.length === 0) return new Map();
  const rows = await queryRows<{ message_id: string; versions: unknown }>(tx, sql`
    with versions as (
      delete from payload_versions p where p.service_id = ${serviceId}
        and p.message_id = any(${sql.param(gone.map((g) => String(g.message_id)))}::text[])
      returning p.message_id, p.version, p.hash, p.payload, p.recorded_at
    )
    select message_id, jsonb_agg(jsonb_build_object('version', version, 'hash', encode(hash, 'hex'),
      'payload', payload, 'recordedAt', recorded_at) order by version) as versions
    from versions group by message_id`);
  return new Map(rows.map((row) => [row.message_id, row.versions]));
}

export async function restoreStepCitus(db: DbOrTx, batch: ResetBatchRow, limit: number): Promise<StepResult> {
  return db.transaction(async (tx) => {
    await sequential(tx);
    const picked = await queryRows<Record<string, unknown>>(tx, sql`
      delete from reset_rows r where r.batch_id = ${batch.id} and r.message_id in (
        select k.message_id from reset_rows k where k.batch_id = ${batch.id} and k.message_id > ${batch.cursor ?? ""}
        order by k.message_id limit ${limit})
      returning r.*`);
    picked.sort((a, b) => (String(a.message_id) < String(b.message_id) ? -1 : 1));
    const rows: Record<string, unknown>[] = picked.map((p) => ({ ...p, hash: hex(p.hash) }));
    let restored: { message_id: string }[] = [];
    if (rows.length > 0) {
      const input = sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as p(message_id text, hash text, hash_version int, version bigint,
        first_seen timestamptz, last_changed timestamptz, versions jsonb, claimed_at timestamptz, previous_claimed_at timestamptz, ref text)`;
      restored =
        batch.kind === "last_seen"
          ? await queryRows(tx, sql`
              insert into last_seen (service_id, message_id, hash, hash_version, version, first_seen, last_changed, ref)
              select ${batch.subject}::text, p.message_id, decode(p.hash, 'hex'), coalesce(p.hash_version, 1), p.version, p.first_seen,
                p.last_changed, p.ref from ${input}
              on conflict (service_id, message_id) do nothing returning message_id`)
          : await queryRows(tx, sql`
              insert into window_records (consumer_group, message_id, claimed_at, previous_claimed_at, ref)
              select ${batch.subject}::text, p.message_id, p.claimed_at, p.previous_claimed_at, p.ref from ${input}
              on conflict (consumer_group, message_id) do nothing returning message_id`);
      if (batch.kind === "last_seen" && restored.length > 0) {
        const back = new Set(restored.map((r) => r.message_id));
        const versions = rows.filter((r) => back.has(String(r.message_id)));
        await queryRows(tx, sql`
          insert into payload_versions (service_id, message_id, version, hash, payload, recorded_at)
          select ${batch.subject}::text, p.message_id, (v ->> 'version')::bigint, decode(v ->> 'hash', 'hex'),
            v ->> 'payload', (v ->> 'recordedAt')::timestamptz
          from jsonb_to_recordset(${JSON.stringify(versions)}::jsonb) as p(message_id text, versions jsonb)
          cross join lateral jsonb_array_elements(coalesce(p.versions, '[]'::jsonb)) v
          on conflict (service_id, message_id, version) do nothing`);
      }
    }
    await queryRows(tx, sql`
      update reset_batches set restored = restored + ${restored.length}::int,
        skipped = skipped + ${picked.length - restored.length}::int, heartbeat_at = now(),
        cursor = greatest(cursor, ${(picked.at(-1)?.message_id as string | undefined) ?? null}::text)
      where id = ${batch.id}`);
    return { scanned: picked.length, moved: restored.length };
  });
}

export async function purgeExpiredRowsCitus(db: DbOrTx, limit: number): Promise<number> {
  const expired = await queryRows<{ id: number }>(db, sql`
    select id from reset_batches where expires_at < now() and status in ('done', 'failed')`);
  const ids = expired.map((row) => Number(row.id));
  if (ids.length === 0) return 0;
  const gone = await queryRows(db, sql`
    delete from reset_rows r where r.batch_id = any(${sql.param(ids)}::bigint[]) and (r.batch_id, r.message_id) in (
      select k.batch_id, k.message_id from reset_rows k where k.batch_id = any(${sql.param(ids)}::bigint[]) limit ${limit})
    returning 1`);
  if (gone.length < limit) {
    const left = await queryRows<{ batch_id: number }>(db, sql`
      select distinct batch_id from reset_rows where batch_id = any(${sql.param(ids)}::bigint[])`);
    const empty = ids.filter((id) => !left.some((row) => Number(row.batch_id) === id));
    if (empty.length > 0) {
      await queryRows(db, sql`update reset_batches set status = 'expired' where id = any(${sql.param(empty)}::bigint[])
        and status in ('done', 'failed')`);
    }
  }
  return gone.length;
}
