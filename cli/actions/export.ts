import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { listKeysPage, type KeyCursor, type KeyListRow } from "@/db/queries/console-keys";
import { countSelection } from "@/db/queries/reset";
import { csvRow } from "@/lib/csv";
import { getService } from "@/lib/services/read-services";
import { instantSchema } from "@/lib/validation/console-common";
import { progressBar } from "../progress";
import { withStore } from "../store";
import type { ExportOptions, GlobalOptions } from "../option-types";

const CSV_COLUMNS = ["service_id", "message_id", "version", "hash", "hash_version", "first_seen", "last_changed"];

function encode(rows: KeyListRow[], serviceId: string, format: ExportOptions["format"], header: boolean): string {
  if (format === "ndjson") {
    return rows
      .map((r) => JSON.stringify({ serviceId, messageId: r.messageId, version: r.version, hash: r.hash, hashVersion: r.hashVersion, firstSeen: r.firstSeen.toISOString(), lastChanged: r.lastChanged.toISOString() }))
      .map((line) => `${line}\n`)
      .join("");
  }
  // Message ids come from upstream producers: csvRow neutralises cells a spreadsheet would run.
  const records = rows.map((r) => csvRow([serviceId, r.messageId, r.version, r.hash, r.hashVersion, r.firstSeen, r.lastChanged]));
  return (header ? csvRow(CSV_COLUMNS) : "") + records.join("");
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (chunk !== "" && !out.write(chunk)) await once(out, "drain");
}

export async function runExport(options: ExportOptions, globals: GlobalOptions): Promise<void> {
  const from = instantSchema.parse(options.from);
  const to = instantSchema.parse(options.to);
  const { databaseUrl, quiet } = globals;
  await withStore({ databaseUrl }, async ({ db }) => {
    const service = await getService(db, options.service);
    const out: Writable = options.output ? createWriteStream(options.output) : process.stdout;
    // One snapshot for the whole export: keys changing meanwhile are neither skipped nor repeated.
    const exported = await db.transaction(
      async (tx) => {
        const total = await countSelection(tx, { kind: "last_seen", subject: service.id, mode: "filter", prefix: options.prefix, from, to });
        const bar = progressBar(`export ${service.id}`, total, { quiet: quiet || (!options.output && process.stdout.isTTY), unit: "keys" });
        let after: KeyCursor | undefined;
        let count = 0;
        try {
          for (;;) {
            const page = await listKeysPage(tx, { serviceId: service.id, prefix: options.prefix, changedFrom: from, changedTo: to, sort: "asc", after, limit: options.pageSize });
            await write(out, encode(page.rows, service.id, options.format, count === 0));
            count += page.rows.length;
            bar.update(count);
            if (!page.hasMore) break;
            after = page.rows.at(-1)!.cursor;
          }
          if (count === 0 && options.format === "csv") await write(out, csvRow(CSV_COLUMNS));
        } finally {
          bar.stop();
        }
        return count;
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    if (options.output) {
      out.end();
      await once(out, "finish");
    }
    console.error(`exported ${exported} keys of ${service.id} as ${options.format}${options.output ? ` to ${options.output}` : ""}`);
  });
}
