import type { Command } from "commander";
import type { GlobalOptions, ReplayResetOptions } from "../option-types";

export function replayResetCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("replay-reset")
    .description("reset exactly the keys a NATS JetStream range holds, before replaying it (reset's list mode: same confirmation, audit and undo)")
    .option("--nats-url <url>", "the NATS server (default: WEIR_NATS_URL)")
    .requiredOption("--stream <name>", "the JetStream stream")
    .option("--service <id>", "reset last-seen state of this service")
    .option("--group <id>", "reset window records of this consumer group")
    .option("--from-seq <n>", "first stream sequence of the range")
    .option("--to-seq <n>", "last stream sequence of the range (included)")
    .option("--from <time>", "messages stored at or after this ISO time")
    .option("--to <time>", "messages stored before this ISO time")
    .option("--id-header <name>", "the header that holds the message id (e.g. Nats-Msg-Id)")
    .option("--id-path <pointer>", "a JSON pointer to the message id in the payload (e.g. /orderId)")
    .option("--reason <why>", "why, for the audit log (required unless --dry-run)")
    .option("--dry-run", "read the range and show what would be reset; change nothing")
    .option("--confirm <id>", "the service or group id, required when more keys than the confirmation threshold are reset")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .addHelpText(
      "after",
      `
The range is read through an ephemeral ordered consumer: nothing is acked, no durable consumer moves.
More ids than one reset's list takes become several resets, each undoable on its own.

Examples:
  $ weir replay-reset --stream ORDERS --from-seq 1200 --to-seq 1450 --group shipper --id-header Nats-Msg-Id --dry-run
  $ weir replay-reset --stream ORDERS --from 2026-05-01T10:00Z --to 2026-05-01T11:00Z --service search-indexer \\
      --id-path /orderId --reason "replay INC-311" --confirm search-indexer`,
    )
    .action(async (options: ReplayResetOptions) => (await import("../actions/replay-reset")).runReplayResetCommand(options, globals()));
}
