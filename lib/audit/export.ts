import { listAudit, type AuditQuery } from "@/db/queries/console-audit";
import type { DbOrTx } from "@/db/types";
import { AUDIT_EXPORT_MAX_ROWS } from "@/lib/validation/console-audit";
import { csvRow } from "./csv";

const HEADER = ["id", "at", "actor", "actor_role", "action", "target", "affected", "reason", "details"];
const CHUNK = 1_000;

/**
 * The filtered audit log as CSV, newest first, read in keyset chunks while the
 * response streams, so a large export never sits in memory at once.
 */
export function auditCsvStream(db: DbOrTx, query: AuditQuery, maxRows = AUDIT_EXPORT_MAX_ROWS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let beforeId = query.beforeId;
  let sent = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(HEADER)));
        return;
      }
      const limit = Math.min(CHUNK, maxRows - sent);
      const rows = limit > 0 ? await listAudit(db, { ...query, beforeId }, limit) : [];
      if (rows.length === 0) return controller.close();
      const text = rows
        .map((r) => csvRow([r.id, r.at, r.actor, r.actorRole, r.action, r.target, r.affected, r.reason, JSON.stringify(r.details)]))
        .join("");
      controller.enqueue(encoder.encode(text));
      sent += rows.length;
      beforeId = rows.at(-1)!.id;
      if (rows.length < limit) controller.close();
    },
  });
}
