import { listAudit, type AuditQuery } from "@/db/queries/console-audit";
import type { DbOrTx } from "@/db/types";
import { csvRow } from "@/lib/csv";
import { AUDIT_EXPORT_MAX_ROWS } from "@/lib/validation/console-audit";

const HEADER = ["id", "at", "actor", "actor_role", "action", "target", "affected", "reason", "details"];
const CHUNK = 1_000;

/**
 * The filtered audit log as CSV, newest first, read in keyset chunks while the
 * response streams, so a large export never sits in memory at once. The first
 * chunk is read before it returns: a failing query is an error status, not a
 * download cut after "200 OK".
 */
export async function auditCsvStream(db: DbOrTx, query: AuditQuery, maxRows = AUDIT_EXPORT_MAX_ROWS): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let beforeId = query.beforeId;
  let sent = 0;
  let done = false;
  const nextChunk = async (): Promise<string> => {
    const limit = Math.min(CHUNK, maxRows - sent);
    const rows = limit > 0 ? await listAudit(db, { ...query, afterId: undefined, beforeId }, limit) : [];
    sent += rows.length;
    // A stream pulls one chunk at a time: nothing else moves `beforeId` during the await.
    // eslint-disable-next-line require-atomic-updates
    if (rows.length > 0) beforeId = rows.at(-1)!.id;
    if (rows.length < limit || limit <= 0) done = true;
    return rows
      .map((r) => csvRow([r.id, r.at, r.actor, r.actorRole, r.action, r.target, r.affected, r.reason, JSON.stringify(r.details)]))
      .join("");
  };
  const first = csvRow(HEADER) + (await nextChunk());
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
      if (done) controller.close();
    },
    async pull(controller) {
      const text = await nextChunk();
      if (text !== "") controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
  });
}
