import type { ResetBatchRow } from "@/db/queries/reset";

export type ResetStatus = ResetBatchRow["status"];

/** A reset as the console shows it (serialisable, no message-id list). */
export interface ResetView {
  id: number;
  kind: ResetBatchRow["kind"];
  subject: string;
  mode: ResetBatchRow["mode"];
  messageIdCount: number | null;
  prefix: string | null;
  changedFrom: string | null;
  changedTo: string | null;
  cutoff: string;
  status: ResetStatus;
  planned: number;
  affected: number;
  restored: number;
  skipped: number;
  actor: string;
  reason: string;
  undoActor: string | null;
  undoReason: string | null;
  createdAt: string;
  finishedAt: string | null;
  undoneAt: string | null;
  expiresAt: string;
  /** Finished, not yet undone and inside the retention period. */
  undoable: boolean;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function resetView(row: ResetBatchRow, now = Date.now()): ResetView {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    mode: row.mode,
    messageIdCount: row.messageIds?.length ?? null,
    prefix: row.prefix,
    changedFrom: iso(row.changedFrom),
    changedTo: iso(row.changedTo),
    cutoff: row.cutoff.toISOString(),
    status: row.status,
    planned: row.planned,
    affected: row.affected,
    restored: row.restored,
    skipped: row.skipped,
    actor: row.actor,
    reason: row.reason,
    undoActor: row.undoActor,
    undoReason: row.undoReason,
    createdAt: row.createdAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    undoneAt: iso(row.undoneAt),
    expiresAt: row.expiresAt.toISOString(),
    undoable: (row.status === "done" || row.status === "failed") && row.expiresAt.getTime() > now,
  };
}

export const auditTarget = (row: Pick<ResetBatchRow, "kind" | "subject">) =>
  `${row.kind === "last_seen" ? "service" : "consumer_group"}:${row.subject}`;
