import { connect } from "@nats-io/transport-node";
import { setting } from "@/lib/config";
import { previewReplayReset, startReplayReset } from "@/lib/replay/replay-reset";
import { runReset } from "@/lib/reset/run-reset";
import type { ReplayRangeInput } from "@/lib/validation/replay";
import { CliError, EXIT } from "../exit-codes";
import type { GlobalOptions, ReplayResetOptions } from "../option-types";
import { cliActor, withStore } from "../store";
import { requireReason } from "./reason";

function rangeOf(o: ReplayResetOptions): ReplayRangeInput {
  if (!o.service === !o.group) throw new CliError("choose what to reset: --service <id> (last-seen state) or --group <id> (window records)", EXIT.usage);
  if ((o.idHeader === undefined) === (o.idPath === undefined)) throw new CliError("say where the message id lives: --id-header <name> or --id-path <pointer>", EXIT.usage);
  return {
    kind: o.service ? "last_seen" : "window",
    subject: (o.service ?? o.group)!,
    stream: o.stream,
    fromSeq: o.fromSeq,
    toSeq: o.toSeq,
    from: o.from,
    to: o.to,
    idFrom: o.idHeader !== undefined ? { header: o.idHeader } : { path: o.idPath },
  } as ReplayRangeInput;
}

export async function runReplayResetCommand(options: ReplayResetOptions, globals: GlobalOptions): Promise<void> {
  const range = rangeOf(options);
  const servers = options.natsUrl ?? setting("WEIR_NATS_URL");
  if (!servers) throw new CliError("where is NATS? --nats-url <url> or WEIR_NATS_URL", EXIT.usage);
  const actor = cliActor(options.actor);
  const nats = await connect({ servers }).catch((err: Error) => {
    throw new CliError(`NATS at ${servers} is unreachable: ${err.message}`, EXIT.unavailable);
  });
  try {
    await withStore({ databaseUrl: globals.databaseUrl }, async ({ db }) => {
      if (options.dryRun) {
        const p = await previewReplayReset({ db, actor, nats: (work) => work(nats), input: range });
        console.log(
          `dry run: ${p.messages} messages (seq ${p.firstSeq ?? "-"}..${p.lastSeq ?? "-"}) name ${p.idCount} ids; ${p.count} have state and would be reset ` +
            `in ${p.parts} reset(s), ${p.missing} have none; ${p.withoutId} messages had no id; nothing was changed`,
        );
        for (const row of p.sample) console.log(`  ${row.messageId}\t${row.at}`);
        if (p.confirmWord) console.log(`a real run resets more than the confirmation threshold: add --confirm ${p.confirmWord}`);
        return;
      }
      const reason = requireReason(options.reason);
      const resets = await startReplayReset({ db, actor, nats: (work) => work(nats), input: { range, reason, confirmation: options.confirm } });
      for (const started of resets) {
        await runReset(db, started.id);
        console.log(`reset #${started.id}: ${started.planned} keys of ${started.subject}, undo with: weir undo-reset ${started.id} --reason "<why>"`);
      }
    });
  } finally {
    await nats.close();
  }
}
