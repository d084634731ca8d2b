import { eraseKeys } from "@/lib/erase/erase-keys";
import { setRetention } from "@/lib/erase/set-retention";
import { previewErase, type ErasePreview } from "@/lib/erase/preview-erase";
import type { EraseSelectionInput } from "@/lib/validation/erase";
import { CliError, EXIT } from "../exit-codes";
import type { EraseOptions, GlobalOptions, RetentionOptions } from "../option-types";
import { cliActor, withStore } from "../store";
import { requireReason } from "./reason";

/** The console's selection from the command line: one subject, then one key or --all. */
export function eraseSelectionOf(o: EraseOptions): EraseSelectionInput {
  const subjects = [
    ["service", o.service],
    ["group", o.group],
    ["scope", o.scope],
  ].filter((pair): pair is ["service" | "group" | "scope", string] => pair[1] !== undefined);
  if (subjects.length !== 1) throw new CliError("choose one subject: --service <id>, --group <id> or --scope <id>", EXIT.usage);
  if ((o.key === undefined) === !o.all) throw new CliError("choose what to erase: --key <id> (one key) or --all (every key of the subject)", EXIT.usage);
  const [kind, subject] = subjects[0]!;
  return { kind, subject, key: o.key };
}

const describe = (p: ErasePreview) => (p.key === null ? `every key of ${p.kind} ${p.subject}` : `the key of ${p.kind} ${p.subject}`);

function printCounts(counts: Record<string, number>): void {
  for (const [table, n] of Object.entries(counts)) console.log(`  ${table}\t${n}`);
}

export async function runEraseCommand(options: EraseOptions, globals: GlobalOptions): Promise<void> {
  const selection = eraseSelectionOf(options);
  const actor = cliActor(options.actor);
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    if (options.dryRun) {
      const preview = await previewErase({ db, actor, input: selection });
      console.log(`dry run: erasing ${describe(preview)} removes or redacts ${preview.total} rows; nothing was changed`);
      printCounts(preview.counts);
      console.log(`a real run needs --reason and --confirm ${preview.key === null ? preview.confirmWord : "<the key>"}`);
      return;
    }
    const reason = requireReason(options.reason);
    const done = await eraseKeys({ db, actor, input: { ...selection, reason, confirmation: options.confirm } });
    console.log(`erased ${describe(done)}: ${done.total} rows removed or redacted in ${done.durationMs} ms, audited as ${actor.id} (entry #${done.auditId})`);
    printCounts(done.counts);
    if (done.keyHash) console.log(`the audit names the key as ${done.keyHash}`);
  });
}

export async function runRetentionCommand(options: RetentionOptions, globals: GlobalOptions): Promise<void> {
  if (!options.service === !options.scope) throw new CliError("choose one: --service <id> (payload history) or --scope <id> (stored responses)", EXIT.usage);
  const maxAge = options.maxAge === "off" ? null : Number(options.maxAge);
  if (maxAge !== null && !Number.isInteger(maxAge)) throw new CliError("--max-age takes whole seconds, or off", EXIT.usage);
  const reason = requireReason(options.reason);
  const actor = cliActor(options.actor);
  const input = { kind: options.service ? ("service" as const) : ("scope" as const), subject: (options.service ?? options.scope)!, maxAgeSeconds: maxAge, reason };
  await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
    const done = await setRetention({ db, actor, input });
    const what = done.kind === "service" ? "payload history" : "stored responses";
    console.log(`${what} of ${done.kind} ${done.subject}: ${done.maxAgeSeconds === null ? "no age limit" : `removed after ${done.maxAgeSeconds} s`} (was ${done.before ?? "none"}), audited as ${actor.id}`);
  });
}
