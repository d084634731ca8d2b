import type { Command } from "commander";
import type { GlobalOptions, ResetOptions } from "../option-types";
import { collect } from "./options";

export function resetCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("reset")
    .description("reset dedup state before a replay: the console's reset (same preview, confirmation, audit and undo)")
    .option("--service <id>", "reset last-seen state of this service")
    .option("--group <id>", "reset window records of this consumer group")
    .option("--key <messageId>", "a message id (repeatable)", collect)
    .option("--keys-file <path>", "message ids, one per line ('-' reads stdin)")
    .option("--prefix <text>", "filter: message ids starting with this")
    .option("--from <time>", "filter: changed (or claimed) at or after this ISO time")
    .option("--to <time>", "filter: changed (or claimed) before this ISO time")
    .option("--all", "filter: every key of the service or group")
    .option("--reason <why>", "why, for the audit log (required unless --dry-run)")
    .option("--dry-run", "show what would be reset, change nothing")
    .option("--csv <path>", "with --dry-run: write the whole selection as CSV ('-' for stdout), as the console's download")
    .option("--confirm <id>", "the service or group id, required when more keys than the confirmation threshold are reset")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .addHelpText(
      "after",
      `
Examples:
  $ weir reset --service billing-adapter --key O-00042 --reason "replay INC-311"
  $ weir reset --group mailer --keys-file ids.txt --reason "resend after SMTP outage"
  $ weir reset --service search-indexer --from 2025-05-01T10:00Z --to 2025-05-01T11:00Z --dry-run
  $ weir reset --service search-indexer --prefix ord- --dry-run --csv selection.csv
  $ weir reset --service search-indexer --all --reason "reindex" --confirm search-indexer`,
    )
    .action(async (options: ResetOptions) => (await import("../actions/reset")).runResetCommand(options, globals()));

  program
    .command("undo-reset")
    .description("put back what a reset removed (keys that have state again are skipped), audited")
    .argument("<batchId>", "the reset's number")
    .requiredOption("--reason <why>", "why, for the audit log")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .action(async (batchId: string, options: { reason: string; actor?: string }) =>
      (await import("../actions/reset")).runUndoResetCommand(batchId, options, globals()),
    );
}
