import { createHash } from "node:crypto";
import { auditBy } from "@/db/queries/audit";
import {
  AUDIT_TARGET,
  countOf,
  deleteKeyStatement,
  deleteResetKeyStatement,
  deleteResetSubjectBatchStatement,
  deleteSubjectBatchStatement,
  KEY_TABLES,
  keyTableLabel,
  redactAuditKeyStatement,
  redactAuditSubjectStatement,
  removed,
  RESET_KIND,
  resetBatchesOf,
  scrubResetBatchesStatement,
} from "@/db/queries/erase";
import type { RawStatement } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { ConflictError, UnprocessableError } from "@/lib/errors";
import { eraseSchema, type EraseInput, type EraseSelection } from "@/lib/validation/erase";
import { ERASE_BATCH_SIZE } from "./constants";
import { authorizeErase, countErasure, type ErasePreview } from "./preview-erase";

export interface EraseResult extends ErasePreview {
  auditId: number;
  /** How the audit names the erased key: its SHA-256, never the key itself. Null for a whole subject. */
  keyHash: string | null;
  durationMs: number;
}

/** The audit's name for a key: a key may be personal data (an email, a customer number), its digest is not readable. */
export const keyHashOf = (key: string) => `sha256:${createHash("sha256").update(key, "utf8").digest("hex")}`;

/**
 * Erases one key, or every key of a service, consumer group or idempotency scope, everywhere weir
 * keeps it: state, payload history, reset copies (and the ids reset lists name), stored responses,
 * journal entries; audit entries that named the key keep its hash instead. Cannot be undone, so it
 * is confirmed by typing the key (or subject), and audited with what was removed, never the data.
 */
export async function eraseKeys({ db, actor, input, batchSize = ERASE_BATCH_SIZE }: { db: DbOrTx; actor: Actor; input: EraseInput; batchSize?: number }): Promise<EraseResult> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const { reason, confirmation, ...rest } = eraseSchema.parse(input);
  const selection: EraseSelection = rest;
  authorizeErase(actor, selection);
  const started = performance.now();
  const key = selection.key ?? null;
  const confirmWord = key ?? selection.subject;
  if (confirmation?.trim() !== confirmWord) {
    throw new UnprocessableError(
      key === null ? `this erases every key of ${selection.subject} and cannot be undone: type "${selection.subject}" to confirm` : "this cannot be undone: type the key to confirm",
      "unprocessable",
      { confirmWord: key === null ? confirmWord : undefined },
      "confirmation",
    );
  }
  // The reason is free text: a key typed into it is kept as its hash, like everywhere else in the audit.
  const keyHash = key === null ? null : keyHashOf(key);
  const auditReason = key === null ? reason : reason.split(key).join(keyHash!);
  const target = `${AUDIT_TARGET[selection.kind]}:${selection.subject}`;
  const resetKind = RESET_KIND[selection.kind];
  try {
    if (resetKind) {
      const { busy } = await resetBatchesOf(db, resetKind, selection.subject);
      if (busy.length > 0) throw new ConflictError(`reset #${busy[0]} of ${selection.subject} is still moving rows; erase once it has finished`);
    }
    const preview = await countErasure(db, selection);
    const details = { kind: selection.kind, keyHash, planned: preview.counts };
    if (key !== null) {
      return await db.transaction(async (tx) => {
        const counts = await removeKey(tx, selection, key);
        const auditId = await auditBy(tx, actor, { action: "erase.key", target, affected: sum(counts), reason: auditReason, details: { ...details, counts } });
        return result(preview, counts, auditId, keyHash, started);
      });
    }
    await auditBy(db, actor, { action: "erase.start", target, affected: preview.total, reason: auditReason, details });
    const counts = await removeSubject(db, selection, batchSize);
    return await db.transaction(async (tx) => {
      if (resetKind) counts.reset_batches = await removed(tx, scrubResetBatchesStatement(resetKind, selection.subject, null));
      counts.audit_log = await countOf(tx, redactAuditSubjectStatement(target));
      const auditId = await auditBy(tx, actor, { action: "erase.subject", target, affected: sum(counts), reason: auditReason, details: { ...details, counts } });
      return result(preview, counts, auditId, null, started);
    });
  } catch (err) {
    throw asStoreError(err);
  }
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, n) => total + n, 0);

function result(preview: ErasePreview, counts: Record<string, number>, auditId: number, keyHash: string | null, started: number): EraseResult {
  return { ...preview, counts, total: sum(counts), auditId, keyHash, durationMs: Math.round(performance.now() - started) };
}

/** One key: one routed statement per table (on Citus every table is distributed by the key), in one transaction. */
async function removeKey(tx: DbOrTx, selection: EraseSelection, key: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of KEY_TABLES[selection.kind]) counts[keyTableLabel(table)] = await removed(tx, deleteKeyStatement(table, selection.subject, key));
  const resetKind = RESET_KIND[selection.kind];
  if (resetKind) {
    const { ids } = await resetBatchesOf(tx, resetKind, selection.subject);
    counts.reset_rows = ids.length === 0 ? 0 : await removed(tx, deleteResetKeyStatement(ids, key));
    counts.reset_batches = await removed(tx, scrubResetBatchesStatement(resetKind, selection.subject, key));
  }
  counts.audit_log = await countOf(tx, redactAuditKeyStatement(`${AUDIT_TARGET[selection.kind]}:${selection.subject}`, key));
  return counts;
}

/** Every key of a subject: bounded batches, each its own short transaction, table by table until none is left. */
async function removeSubject(db: DbOrTx, selection: EraseSelection, batchSize: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const drain = async (label: string, statement: RawStatement) => {
    counts[label] = 0;
    for (;;) {
      const n = await removed(db, statement);
      counts[label] += n;
      if (n === 0) return;
    }
  };
  for (const table of KEY_TABLES[selection.kind]) await drain(keyTableLabel(table), deleteSubjectBatchStatement(table, selection.subject, batchSize));
  const resetKind = RESET_KIND[selection.kind];
  if (resetKind) {
    const { ids } = await resetBatchesOf(db, resetKind, selection.subject);
    if (ids.length > 0) await drain("reset_rows", deleteResetSubjectBatchStatement(ids, batchSize));
    else counts.reset_rows = 0;
  }
  return counts;
}
