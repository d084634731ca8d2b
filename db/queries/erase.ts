import { runRaw, type RawStatement } from "../raw";
import type { DbOrTx } from "../types";

export type EraseKind = "service" | "group" | "scope";

/** A table that keeps a subject's keys: which column names the subject, which the key. */
interface KeyTable {
  table: string;
  subject: string;
  key: string;
  /** The journal keeps every mode in one table. */
  mode?: "last_seen" | "window" | "idempotency";
}

/**
 * Everywhere weir keeps a key, per kind of subject (reset copies are reached through
 * reset_batches; see below). Any column added to these rows (a `ref`, a note) goes with them.
 * On Citus each is distributed by its key column, so the one-key statements are routed.
 */
export const KEY_TABLES: Record<EraseKind, readonly KeyTable[]> = {
  service: [
    { table: "payload_versions", subject: "service_id", key: "message_id" },
    { table: "last_seen", subject: "service_id", key: "message_id" },
    { table: "journal", subject: "subject", key: "key", mode: "last_seen" },
  ],
  group: [
    { table: "window_records", subject: "consumer_group", key: "message_id" },
    { table: "journal", subject: "subject", key: "key", mode: "window" },
  ],
  scope: [
    { table: "idempotency_keys", subject: "scope", key: "key" },
    { table: "journal", subject: "subject", key: "key", mode: "idempotency" },
  ],
};

/** The reset kind whose copies (reset_rows) hold this subject's keys; idempotency keys are never reset. */
export const RESET_KIND: Record<EraseKind, "last_seen" | "window" | null> = { service: "last_seen", group: "window", scope: null };

/** How the audit log names a subject (the targets written by reset, revert, TTL and scope changes). */
export const AUDIT_TARGET: Record<EraseKind, string> = { service: "service", group: "consumer_group", scope: "idempotency_scope" };

const where = (t: KeyTable, alias = "") => `${alias}${t.subject} = $1${t.mode ? ` and ${alias}mode = '${t.mode}'` : ""}`;
const label = (t: KeyTable) => (t.mode ? `${t.table}:${t.mode}` : t.table);
const tag = (t: KeyTable) => label(t).replace(":", "_");

/** One key's rows of one table: a single routed statement. */
export function countKeyStatement(t: KeyTable, subject: string, key: string): RawStatement {
  return { name: `weir_erase_count_key_${tag(t)}_v1`, text: `select count(*)::int as n from ${t.table} where ${where(t)} and ${t.key} = $2`, values: [subject, key] };
}

export function deleteKeyStatement(t: KeyTable, subject: string, key: string): RawStatement {
  return { name: `weir_erase_delete_key_${tag(t)}_v1`, text: `delete from ${t.table} where ${where(t)} and ${t.key} = $2 returning 1`, values: [subject, key] };
}

export function countSubjectStatement(t: KeyTable, subject: string): RawStatement {
  return { name: `weir_erase_count_subject_${tag(t)}_v1`, text: `select count(*)::int as n from ${t.table} where ${where(t)}`, values: [subject] };
}

/**
 * Up to $2 keys of a subject and every row of theirs, re-checked on the row removed (as cleanup's
 * Citus batches do: the LIMIT subquery is gathered once, the delete runs on the shards it names).
 */
export function deleteSubjectBatchStatement(t: KeyTable, subject: string, limit: number): RawStatement {
  return {
    name: `weir_erase_delete_subject_${tag(t)}_v1`,
    text: `delete from ${t.table} r where ${where(t, "r.")}
      and r.${t.key} in (select b.${t.key} from ${t.table} b where ${where(t, "b.")} limit $2) returning 1`,
    values: [subject, limit],
  };
}

export { label as keyTableLabel };

/** Resets of the subject whose copies or id lists may hold its keys, and whether one is still moving rows. */
export async function resetBatchesOf(db: DbOrTx, kind: "last_seen" | "window", subject: string): Promise<{ ids: number[]; busy: number[] }> {
  const rows = await runRaw<{ id: string; status: string }>(db, {
    name: "weir_erase_reset_batches_v1",
    text: "select id, status from reset_batches where kind = $1 and subject = $2",
    values: [kind, subject],
  });
  return {
    ids: rows.map((r) => Number(r.id)),
    busy: rows.filter((r) => r.status === "running" || r.status === "undoing").map((r) => Number(r.id)),
  };
}

export function countResetKeyStatement(batchIds: number[], key: string): RawStatement {
  return { name: "weir_erase_count_reset_key_v1", text: "select count(*)::int as n from reset_rows where message_id = $2 and batch_id = any($1::bigint[])", values: [batchIds, key] };
}

export function deleteResetKeyStatement(batchIds: number[], key: string): RawStatement {
  return { name: "weir_erase_delete_reset_key_v1", text: "delete from reset_rows where message_id = $2 and batch_id = any($1::bigint[]) returning 1", values: [batchIds, key] };
}

export function countResetSubjectStatement(batchIds: number[]): RawStatement {
  return { name: "weir_erase_count_reset_subject_v1", text: "select count(*)::int as n from reset_rows where batch_id = any($1::bigint[])", values: [batchIds] };
}

export function deleteResetSubjectBatchStatement(batchIds: number[], limit: number): RawStatement {
  return {
    name: "weir_erase_delete_reset_subject_v1",
    text: `delete from reset_rows r where r.batch_id = any($1::bigint[])
      and (r.batch_id, r.message_id) in (select b.batch_id, b.message_id from reset_rows b where b.batch_id = any($1::bigint[]) limit $2)
      returning 1`,
    values: [batchIds, limit],
  };
}

const RESETS_KEY_WHERE =
  "kind = $1 and subject = $2 and ($3 = any(message_ids) or cursor = $3 or prefix = $3 or strpos(reason, $3) > 0 or strpos(undo_reason, $3) > 0)";
const HASHED_KEY = "'sha256:' || encode(sha256(convert_to($3::text, 'UTF8')), 'hex')";
const RESETS_SUBJECT_WHERE = "kind = $1 and subject = $2 and (message_ids is not null or cursor is not null or prefix is not null)";

export function countResetBatchesStatement(kind: "last_seen" | "window", subject: string, key: string | null): RawStatement {
  return key === null
    ? { name: "weir_erase_count_resets_subject_v1", text: `select count(*)::int as n from reset_batches where ${RESETS_SUBJECT_WHERE}`, values: [kind, subject] }
    : { name: "weir_erase_count_resets_key_v1", text: `select count(*)::int as n from reset_batches where ${RESETS_KEY_WHERE}`, values: [kind, subject, key] };
}

/**
 * A reset's id list, cursor and prefix name keys (and its reasons may): one key is taken out of them
 * (the reasons keep its hash, like the audit); a whole subject's lists go.
 * Its copies removed, a finished reset can no longer be undone: it is marked expired.
 */
export function scrubResetBatchesStatement(kind: "last_seen" | "window", subject: string, key: string | null): RawStatement {
  if (key === null) {
    return {
      name: "weir_erase_scrub_resets_subject_v1",
      text: `update reset_batches set message_ids = null, cursor = null, prefix = null,
          status = case when status = 'done' then 'expired' else status end
        where kind = $1 and subject = $2 returning 1`,
      values: [kind, subject],
    };
  }
  return {
    name: "weir_erase_scrub_resets_key_v1",
    text: `update reset_batches set message_ids = array_remove(message_ids, $3),
        cursor = case when cursor = $3 then null else cursor end,
        prefix = case when prefix = $3 then null else prefix end,
        reason = left(replace(reason, $3, ${HASHED_KEY}), 1000),
        undo_reason = left(replace(undo_reason, $3, ${HASHED_KEY}), 1000)
      where ${RESETS_KEY_WHERE} returning 1`,
    values: [kind, subject, key],
  };
}

const AUDIT_KEY_WHERE = "target = $1 and (strpos(details::text, to_jsonb($2::text)::text) > 0 or strpos(reason, $2::text) > 0)";
const AUDIT_SUBJECT_WHERE =
  "target = $1 and action not like 'erase.%' and (jsonb_typeof(details->'messageId') = 'string' or jsonb_typeof(details->'key') = 'string' or jsonb_typeof(details->'messageIds') = 'array')";

/** Audit entries that name the key (or, for a whole subject, any of its keys): the ones an erasure redacts. */
export function countAuditStatement(target: string, key: string | null): RawStatement {
  return key === null
    ? { name: "weir_erase_count_audit_subject_v1", text: `select count(*)::int as n from audit_log where ${AUDIT_SUBJECT_WHERE}`, values: [target] }
    : { name: "weir_erase_count_audit_key_v1", text: `select count(*)::int as n from audit_log where ${AUDIT_KEY_WHERE}`, values: [target, key] };
}

/**
 * Audit entries about the subject keep that something happened, not which key: the key is replaced
 * by its hash wherever it appears (migration 0017's functions, the one way past the append-only rule).
 */
export function redactAuditKeyStatement(target: string, key: string): RawStatement {
  return { name: "weir_erase_redact_audit_key_v1", text: "select weir_audit_redact_key_v1($1, $2) as n", values: [target, key] };
}

/** A whole subject: the key fields weir's own audit entries write (messageId, key, messageIds) become hashes. */
export function redactAuditSubjectStatement(target: string): RawStatement {
  return { name: "weir_erase_redact_audit_subject_v1", text: "select weir_audit_redact_subject_v1($1) as n", values: [target] };
}

export async function countOf(db: DbOrTx, statement: RawStatement): Promise<number> {
  const [row] = await runRaw<{ n: number }>(db, statement);
  return Number(row?.n ?? 0);
}

export async function removed(db: DbOrTx, statement: RawStatement): Promise<number> {
  return (await runRaw(db, statement)).length;
}
