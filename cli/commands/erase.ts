import type { Command } from "commander";
import type { EraseOptions, GlobalOptions, RetentionOptions } from "../option-types";

export function eraseCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("erase")
    .description("erase one key, or every key of a subject, everywhere weir keeps it (the console's erasure: same preview, confirmation and audit); cannot be undone")
    .option("--service <id>", "a service's last-seen state, payload history and reset copies")
    .option("--group <id>", "a consumer group's window claims and reset copies")
    .option("--scope <id>", "an idempotency scope's keys and stored responses")
    .option("--key <id>", "the one message id or idempotency key to erase")
    .option("--all", "every key of the service, group or scope")
    .option("--reason <why>", "why, for the audit log (required unless --dry-run)")
    .option("--dry-run", "count what would be erased, table by table; change nothing")
    .option("--confirm <word>", "the key (with --key) or the subject id (with --all), typed: an erasure cannot be undone")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .addHelpText(
      "after",
      `
The audit keeps that an erasure happened (subject, rows per table, actor, reason) and the key's
SHA-256, never the key or its data. Journal and reset entries that named the key lose it too.

Examples:
  $ weir erase --service billing --key cust-4711 --dry-run
  $ weir erase --service billing --key cust-4711 --reason "GDPR request 2026-118" --confirm cust-4711
  $ weir erase --scope payments --all --reason "tenant left" --confirm payments`,
    )
    .action(async (options: EraseOptions) => (await import("../actions/erase")).runEraseCommand(options, globals()));
}

export function retentionCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("retention")
    .description("set or remove an age limit: a service's payload history, or an idempotency scope's stored responses (the retention job runs with cleanup)")
    .option("--service <id>", "the service whose payload versions the limit bounds")
    .option("--scope <id>", "the idempotency scope whose stored responses the limit bounds")
    .requiredOption("--max-age <seconds|off>", "rows older than this many seconds are removed; off removes the limit")
    .option("--reason <why>", "why, for the audit log")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .action(async (options: RetentionOptions) => (await import("../actions/erase")).runRetentionCommand(options, globals()));
}
