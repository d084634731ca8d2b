import type { DbOrTx } from "@/db/types";
import {
  AUDIT_TARGET,
  countAuditStatement,
  countKeyStatement,
  countOf,
  countResetBatchesStatement,
  countResetKeyStatement,
  countResetSubjectStatement,
  countSubjectStatement,
  KEY_TABLES,
  keyTableLabel,
  RESET_KIND,
  resetBatchesOf,
} from "@/db/queries/erase";
import { asStoreError } from "@/db/unavailable";
import type { Actor, ScopeKind } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { eraseSelectionSchema, type EraseSelection, type EraseSelectionInput } from "@/lib/validation/erase";

export interface ErasePreview {
  kind: EraseSelection["kind"];
  subject: string;
  key: string | null;
  /** Rows removed per table (journal per mode), and audit entries and resets whose key mentions are redacted. */
  counts: Record<string, number>;
  total: number;
  /** What to type to confirm: the key, or the subject id for every key. */
  confirmWord: string;
}

export const SCOPE_KIND: Record<EraseSelection["kind"], ScopeKind> = { service: "services", group: "consumerGroups", scope: "idempotencyScopes" };

/** The subject an erasure touches, checked with the one `authorize` before anything is read. */
export function authorizeErase(actor: Actor, selection: EraseSelection): void {
  authorize(actor, "operate", { kind: SCOPE_KIND[selection.kind], id: selection.subject });
}

/** Counts what an erasure would remove or redact, table by table. Reads only. */
export async function countErasure(db: DbOrTx, selection: EraseSelection): Promise<ErasePreview> {
  const { kind, subject } = selection;
  const key = selection.key ?? null;
  const counts: Record<string, number> = {};
  for (const table of KEY_TABLES[kind]) {
    counts[keyTableLabel(table)] = await countOf(db, key === null ? countSubjectStatement(table, subject) : countKeyStatement(table, subject, key));
  }
  const resetKind = RESET_KIND[kind];
  if (resetKind) {
    const { ids } = await resetBatchesOf(db, resetKind, subject);
    counts.reset_rows = ids.length === 0 ? 0 : await countOf(db, key === null ? countResetSubjectStatement(ids) : countResetKeyStatement(ids, key));
    counts.reset_batches = await countOf(db, countResetBatchesStatement(resetKind, subject, key));
  }
  counts.audit_log = await countOf(db, countAuditStatement(`${AUDIT_TARGET[kind]}:${subject}`, key));
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { kind, subject, key, counts, total, confirmWord: key ?? subject };
}

export async function previewErase({ db, actor, input }: { db: DbOrTx; actor: Actor; input: EraseSelectionInput }): Promise<ErasePreview> {
  authorize(actor, "operate");
  const selection = eraseSelectionSchema.parse(input);
  authorizeErase(actor, selection);
  try {
    return await countErasure(db, selection);
  } catch (err) {
    throw asStoreError(err);
  }
}
