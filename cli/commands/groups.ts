import type { Command } from "commander";
import type { GlobalOptions, SetGroupOptions } from "../option-types";
import { graceSeconds, positiveInt } from "./options";

export function groupsCommand(program: Command, globals: () => GlobalOptions): void {
  const groups = program.command("groups").description("consumer groups and their claim windows");
  groups
    .command("list")
    .description("every configured consumer group with its TTL, grace period and sliding setting")
    .option("--json", "one JSON object per line")
    .action(async (options: { json?: boolean }) => (await import("../actions/groups")).runListGroups(options, globals()));
  groups
    .command("set <id>")
    .description(
      "create a consumer group or change its window, audited: the console's TTL editor and PUT /api/v1/consumer-groups/:id. " +
        "It applies to stored records at once (a shorter TTL expires some); check with --dry-run first",
    )
    .requiredOption("--ttl <seconds>", "the claim window", positiveInt)
    .option("--grace <seconds>", "how long expired records are kept to count late redeliveries; 'ttl' for one TTL (default: as it is)", graceSeconds)
    .option("--slide", "sliding window: a duplicate restarts the record's window")
    .option("--no-slide", "fixed window (default: as it is; fixed for a new group)")
    .option("--reason <why>", "why, for the audit log (required unless --dry-run)")
    .option("--dry-run", "show what the TTL does to stored records, change nothing")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .option("--json", "print the saved group as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ weir groups set mailer --ttl 600 --dry-run
  $ weir groups set mailer --ttl 3600 --slide --reason "mail retries stop after an hour"`,
    )
    .action(async (id: string, options: SetGroupOptions) => (await import("../actions/groups")).runSetGroup(id, options, globals()));
}
