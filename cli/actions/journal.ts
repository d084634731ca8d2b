import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { journalSubjectFor, readJournalLevel, readJournalRange, readKeyJournal, type JournalKeyPage } from "@/lib/journal/read";
import { setJournalLevel } from "@/lib/journal/set-level";
import { setJournalLevelSchema } from "@/lib/validation/journal";
import type { GlobalOptions, JournalExportOptions, JournalKeyOptions, JournalLevelOptions } from "../option-types";
import { cliActor, withStore } from "../store";
import { requireReason } from "./reason";

/** The CLI reads with database access, which covers every subject; the verbs still parse and authorise. */
const reader = () => cliActor();

/** Pages through the whole range with the API's verb and cursor, one NDJSON line per entry. */
export async function runJournalExport(options: JournalExportOptions, globals: GlobalOptions): Promise<void> {
  const input = { ...options, limit: Math.min(options.pageSize, 1000) };
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    let page = await readJournalRange({ db, actor: reader(), input });
    const out: Writable = options.output ? createWriteStream(options.output) : process.stdout;
    let count = 0;
    for (;;) {
      const text = page.entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
      if (text !== "" && !out.write(text)) await once(out, "drain");
      count += page.entries.length;
      if (page.nextCursor === null) break;
      page = await readJournalRange({ db, actor: reader(), input: { ...input, cursor: page.nextCursor } });
    }
    if (options.output) {
      out.end();
      await once(out, "finish");
    }
    console.error(`exported ${count} journal entries of ${page.mode} ${page.subject} from ${page.from} to ${page.to}${options.output ? ` to ${options.output}` : ""}`);
    if (page.gaps.length > 0) {
      const dropped = page.gaps.reduce((sum, gap) => sum + gap.dropped, 0);
      console.error(`warning: ${dropped} entries were dropped (a journal buffer was full) in these minutes: ${page.gaps.map((g) => `${g.minute} (${g.dropped})`).join(", ")}`);
    }
  });
}

function timelineLine(entry: JournalKeyPage["entries"][number]): string {
  const parts = [entry.at, entry.decision];
  if (entry.version !== null) parts.push(`${entry.mode === "idempotency" ? "attempt" : "v"}${entry.version}`);
  if (entry.matchedAt !== null) parts.push(`matched ${entry.matchedAt}`);
  parts.push(`caller ${entry.caller ?? "-"}`);
  if (entry.requestId !== null) parts.push(`request ${entry.requestId}`);
  if (entry.traceId !== null) parts.push(`trace ${entry.traceId}`);
  return parts.join("\t");
}

export async function runJournalKey(
  args: { mode: string; subject: string; key: string },
  options: JournalKeyOptions,
  globals: GlobalOptions,
): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const page = await readKeyJournal({ db, actor: reader(), input: { ...args, limit: options.limit, before: options.before } });
    for (const entry of page.entries) console.log(options.json ? JSON.stringify(entry) : timelineLine(entry));
    if (page.entries.length === 0) console.error(`no journal entries for ${page.key} of ${page.mode} ${page.subject}${options.before ? " before that cursor" : ""}`);
    if (page.nextBefore !== null) console.error(`older entries: add --before ${page.nextBefore}`);
  });
}

export async function runJournalLevel(
  args: { mode: string; subject: string; level?: string },
  options: JournalLevelOptions,
  globals: GlobalOptions,
): Promise<void> {
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    if (args.level === undefined) {
      const view = await readJournalLevel({ db, actor: reader(), input: args });
      return console.log(options.json ? JSON.stringify(view) : `journal level of ${view.kind} ${view.subject}: ${view.level}`);
    }
    const actor = cliActor(options.actor);
    const { mode, subject, kind } = journalSubjectFor(actor, "operate", args);
    const { level, reason } = setJournalLevelSchema.parse({ level: args.level, reason: requireReason(options.reason) });
    const result = await setJournalLevel({ db, actor, input: { kind, subject, level, reason } });
    if (options.json) return console.log(JSON.stringify({ mode, ...result }));
    if (!result.changed) return console.log(`journal level of ${kind} ${subject} is already ${result.level}: nothing was written`);
    console.log(`journal level of ${kind} ${subject}: ${result.previous} -> ${result.level}; applies on every node within seconds; audited as ${actor.id}`);
  });
}
