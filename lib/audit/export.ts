import { listAudit, type AuditQuery } from "@/db/queries/console-audit";
import type { DbOrTx } from "@/db/types";
import { keysetCsvStream } from "@/lib/csv";
import { AUDIT_EXPORT_MAX_ROWS } from "@/lib/validation/console-audit";

const HEADER = ["id", "at", "actor", "actor_role", "action", "target", "affected", "reason", "details"];

/** The filtered audit log as CSV, newest first, streamed in keyset chunks (lib/csv.ts). */
export async function auditCsvStream(db: DbOrTx, query: AuditQuery, maxRows = AUDIT_EXPORT_MAX_ROWS): Promise<ReadableStream<Uint8Array>> {
  return keysetCsvStream({
    header: HEADER,
    maxRows,
    start: query.beforeId,
    read: (beforeId, limit) => listAudit(db, { ...query, afterId: undefined, beforeId }, limit),
    cursorOf: (r) => r.id,
    cells: (r) => [r.id, r.at, r.actor, r.actorRole, r.action, r.target, r.affected, r.reason, JSON.stringify(r.details)],
  });
}
