import type { Command } from "commander";
import type { GlobalOptions, JournalExportOptions, JournalKeyOptions, JournalLevelOptions } from "../option-types";
import { collect, positiveInt } from "./options";

const MODES = "last_seen (a service), window (a consumer group) or idempotency (a scope)";

export function journalCommand(program: Command, globals: () => GlobalOptions): void {
  const journal = program.command("journal").description("the decision journal: what weir answered, when and to whom");
  journal
    .command("export")
    .description("every journaled decision of a subject in a time range, oldest first, as NDJSON (one entry per line)")
    .requiredOption("--mode <mode>", MODES)
    .requiredOption("--subject <id>", "the service, consumer group or idempotency scope")
    .requiredOption("--from <time>", "start, inclusive: ISO 8601 (UTC when no zone is given)")
    .requiredOption("--to <time>", "end, exclusive: ISO 8601; at most 31 days after --from")
    .option("--decision <decision>", "only these decisions (repeat, or separate with commas)", collect)
    .option("--caller <caller>", "only this caller (token:<id>, a library-mode caller's name)")
    .option("--key <key>", "only this message id or idempotency key")
    .option("-o, --output <file>", "write to a file instead of stdout")
    .option("--page-size <entries>", "entries read per query (at most 1000)", positiveInt, 1000)
    .addHelpText(
      "after",
      `
Minutes in which a node dropped entries (its journal buffer was full) are named on stderr.

Examples:
  $ weir journal export --mode last_seen --subject billing-adapter --from 2026-11-27T03:00Z --to 2026-11-27T04:00Z > incident.ndjson
  $ weir journal export --mode window --subject mailer --from 2026-11-27 --to 2026-11-28 --decision duplicate,late --caller token:tok_abc`,
    )
    .action(async (options: JournalExportOptions) => (await import("../actions/journal")).runJournalExport(options, globals()));
  journal
    .command("key <mode> <subject> <key>")
    .description("one key's decisions, newest first: each answer, when, the version or attempt, the caller, the request and trace ids")
    .option("--limit <entries>", "how many (at most 1000)", positiveInt, 100)
    .option("--before <cursor>", "older entries: the cursor the previous run printed")
    .option("--json", "one JSON entry per line")
    .addHelpText(
      "after",
      `
Examples:
  $ weir journal key last_seen billing-adapter O-123
  $ weir journal key idempotency charges 7f3c-checkout --json`,
    )
    .action(async (mode: string, subject: string, key: string, options: JournalKeyOptions) =>
      (await import("../actions/journal")).runJournalKey({ mode, subject, key }, options, globals()),
    );
  journal
    .command("level <mode> <subject> [level]")
    .description(
      "show, or set (audited), what the journal keeps of a subject's answers: all, changes_and_duplicates (all but new and started) or off; " +
        "a change applies on every node within seconds",
    )
    .option("--reason <why>", "why, for the audit log (required to set a level)")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ weir journal level last_seen billing-adapter
  $ weir journal level window mailer changes_and_duplicates --reason "first claims are most of the traffic"`,
    )
    .action(async (mode: string, subject: string, level: string | undefined, options: JournalLevelOptions) =>
      (await import("../actions/journal")).runJournalLevel({ mode, subject, level }, options, globals()),
    );
}
