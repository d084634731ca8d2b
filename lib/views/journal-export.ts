import { journalRange, type JournalPosition, type JournalRow, type RangeQuery } from "@/db/queries/journal";
import type { DbOrTx } from "@/db/types";
import { csvRow } from "@/lib/csv";

/** The most entries one download carries; a longer incident is exported in narrower ranges. */
export const JOURNAL_EXPORT_MAX_ROWS = 1_000_000;
const PAGE = 1_000;

const HEADER = ["at", "mode", "subject", "key", "decision", "version", "matched_at", "hash_version", "caller", "request_id", "trace_id"];

const csvLine = (r: JournalRow) => csvRow([r.at, r.mode, r.subject, r.key, r.decision, r.version, r.matchedAt, r.hashVersion, r.caller, r.requestId, r.traceId]);
const ndjsonLine = (r: JournalRow) => `${JSON.stringify(r)}\n`;

/**
 * A range's journal entries, oldest first, as CSV or NDJSON, read a keyset page at a time while the
 * response streams, so an export never sits in memory. The first page is read before it returns:
 * a failing store is an error status, not a download cut after "200 OK".
 */
export async function journalExportStream(db: DbOrTx, query: RangeQuery, format: "csv" | "ndjson", maxRows = JOURNAL_EXPORT_MAX_ROWS): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const line = format === "csv" ? csvLine : ndjsonLine;
  let after: JournalPosition | undefined;
  let sent = 0;
  let done = false;
  const nextPage = async (): Promise<string> => {
    const limit = Math.min(PAGE, maxRows - sent);
    const rows = limit > 0 ? await journalRange(db, { ...query, after, limit }) : [];
    sent += rows.length;
    // A stream pulls one page at a time: nothing else moves `after` during the await.
    // eslint-disable-next-line require-atomic-updates
    if (rows.length > 0) after = { atUs: rows.at(-1)!.atUs, key: rows.at(-1)!.key };
    if (rows.length < limit || limit <= 0) done = true;
    return rows.map(line).join("");
  };
  const first = (format === "csv" ? csvRow(HEADER) : "") + (await nextPage());
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first !== "") controller.enqueue(encoder.encode(first));
      if (done) controller.close();
    },
    async pull(controller) {
      const text = await nextPage();
      if (text !== "") controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
  });
}
