import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DbOrTx } from "@/db/types";
import { resetSelectionCsv } from "@/lib/reset/preview-csv";
import { previewReset } from "@/lib/reset/preview-reset";
import { getResetProgress } from "@/lib/reset/progress";
import { runReset, runUndo } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { undoReset } from "@/lib/reset/undo-reset";
import type { ResetView } from "@/lib/reset/views";
import type { ResetSelectionInput } from "@/lib/validation/reset";
import { CliError, EXIT } from "../exit-codes";
import { progressBar } from "../progress";
import { requireReason } from "./reason";
import { cliActor, withStore } from "../store";
import type { GlobalOptions, ResetOptions } from "../option-types";

async function readIds(file: string): Promise<string> {
  if (file !== "-") return readFile(file, "utf8");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The console's selection (same schema, same verb) from the command line. */
export async function selectionOf(o: ResetOptions): Promise<ResetSelectionInput> {
  if (!o.service === !o.group) throw new CliError("choose what to reset: --service <id> (last-seen state) or --group <id> (window records)", EXIT.usage);
  const base = { kind: o.service ? "last_seen" : "window", subject: (o.service ?? o.group)! } as const;
  const filtering = o.all || o.prefix !== undefined || o.from !== undefined || o.to !== undefined;
  const keys = o.key ?? [];
  const listing = keys.length > 0 || o.keysFile !== undefined;
  if (filtering === listing) {
    throw new CliError("choose which keys: --key <id> (repeatable), --keys-file <path|->, or a filter (--prefix, --from, --to, or --all)", EXIT.usage);
  }
  if (filtering) return { ...base, mode: "filter", prefix: o.prefix, from: o.from, to: o.to };
  if (keys.length === 1 && !o.keysFile) return { ...base, mode: "key", messageId: keys[0] };
  const fromFile = o.keysFile ? await readIds(o.keysFile) : "";
  return { ...base, mode: "list", messageIds: [...keys, fromFile].join("\n") };
}

async function follow(db: DbOrTx, view: ResetView, run: Promise<unknown>, quiet: boolean | undefined, label: string, target: (v: ResetView) => number): Promise<ResetView> {
  const bar = progressBar(label, view.planned, { quiet, unit: "keys" });
  const actor = cliActor();
  const poll = async () => {
    const now = await getResetProgress({ db, actor, input: { batchId: view.id }, getDb: async () => db });
    bar.update(target(now));
    return now;
  };
  const timer = setInterval(() => void poll().catch(() => undefined), 250);
  try {
    await run;
  } finally {
    clearInterval(timer);
  }
  const final = await poll();
  bar.stop();
  return final;
}

function printPreview(preview: Awaited<ReturnType<typeof previewReset>>, subject: string): void {
  console.log(`dry run: would reset ${preview.count} keys of ${subject}; nothing was changed`);
  if (preview.missing) console.log(`${preview.missing} of the given ids have no state (nothing to reset for them)`);
  for (const row of preview.sample) console.log(`  ${row.messageId}\t${row.at}${row.version === null ? "" : `\tv${row.version}`}`);
  if (preview.count > preview.sample.length) console.log(`  ... and ${preview.count - preview.sample.length} more`);
  if (preview.confirmWord) console.log(`a real run resets more than the confirmation threshold: add --confirm ${preview.confirmWord}`);
}

async function writeCsv(stream: ReadableStream<Uint8Array>, path: string): Promise<void> {
  const out = path === "-" ? Writable.fromWeb(new WritableStream({ write: (chunk) => void process.stdout.write(chunk) })) : createWriteStream(path);
  await pipeline(Readable.fromWeb(stream as import("node:stream/web").ReadableStream<Uint8Array>), out);
}

export async function runResetCommand(options: ResetOptions, globals: GlobalOptions): Promise<void> {
  const selection = await selectionOf(options);
  const { databaseUrl, quiet } = globals;
  const actor = cliActor(options.actor);
  if (options.csv !== undefined && !options.dryRun) throw new CliError("--csv writes a dry run's selection: add --dry-run", EXIT.usage);
  await withStore({ databaseUrl }, async ({ db }) => {
    if (options.csv !== undefined) return writeCsv(await resetSelectionCsv({ db, actor, input: selection }), options.csv);
    if (options.dryRun) return printPreview(await previewReset({ db, actor, input: selection }), selection.subject);
    const reason = requireReason(options.reason);
    const started = await startReset({ db, actor, input: { selection, reason, confirmation: options.confirm } });
    const done = await follow(db, started, runReset(db, started.id), quiet, `reset #${started.id}`, (v) => v.affected);
    console.log(`reset #${done.id} ${done.status}: ${done.affected} of ${done.planned} keys of ${done.subject} reset, audited as ${actor.id}`);
    if (done.status !== "done") throw new CliError(`reset #${done.id} ended ${done.status}; see the console's reset history`, EXIT.failed);
    console.log(`undo until ${done.expiresAt} with: weir undo-reset ${done.id} --reason "<why>"`);
  });
}

export async function runUndoResetCommand(batchId: string, options: { reason: string; actor?: string }, globals: GlobalOptions): Promise<void> {
  const { databaseUrl, quiet } = globals;
  const actor = cliActor(options.actor);
  await withStore({ databaseUrl }, async ({ db }) => {
    const marked = await undoReset({ db, actor, input: { batchId, reason: options.reason } });
    const done = await follow(db, marked, runUndo(db, marked.id), quiet, `undo #${marked.id}`, (v) => v.restored + v.skipped);
    console.log(`reset #${done.id} ${done.status}: ${done.restored} keys restored, ${done.skipped} skipped (they have state again)`);
  });
}
