import type { Command } from "commander";
import type { GlobalOptions, SetServiceOptions } from "../option-types";
import { collect, nonNegativeInt } from "./options";

export function servicesCommand(program: Command, globals: () => GlobalOptions): void {
  const services = program.command("services").description("services and what of their payloads is hashed");
  services
    .command("list")
    .description("every service with its hash settings")
    .option("--json", "one JSON object per line")
    .action(async (options: { json?: boolean }) => (await import("../actions/services")).runListServices(options, globals()));
  services
    .command("set <id>")
    .description(
      "register a service or change its settings, audited; what is not given stays as it is. A change of the " +
        "ignored or included paths is a new hash settings version: stored keys are compared under the settings they were made with",
    )
    .option("--display-name <name>", "how the console names it")
    .option("--ignore <pointer>", "a JSON pointer stripped before hashing (repeatable, comma-separated; replaces the list)", collect)
    .option("--include <pointer>", "a JSON pointer of the only subtrees hashed (repeatable, comma-separated; replaces the list)", collect)
    .option("--clear-ignored", "no ignored paths")
    .option("--clear-included", "no included paths: hash the whole payload")
    .option(
      "--normalise <names>",
      "what to normalise before hashing: numbers, nulls, empty_containers, or none (comma-separated; replaces the list; a new service gets all three)",
      collect,
    )
    .option("--history-depth <n>", "payload versions kept per key for diffs (0 keeps hashes only)", nonNegativeInt)
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .option("--json", "print the saved service as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ weir services set orders --include /order,/customer/id --ignore /order/updatedAt
  $ weir services set orders --clear-included --history-depth 10
  $ weir services set orders --normalise numbers,nulls`,
    )
    .action(async (id: string, options: SetServiceOptions) => (await import("../actions/services")).runSetService(id, options, globals()));
}
