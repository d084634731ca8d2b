import type { Command } from "commander";
import type { GlobalOptions, RevertKeyOptions } from "../option-types";
import { positiveInt } from "./options";

export function keysCommand(program: Command, globals: () => GlobalOptions): void {
  const keys = program.command("keys").description("last-seen keys of a service");
  keys
    .command("revert")
    .description(
      "take back a check's new or changed (POST /api/v1/check/revert): the previous hash and version are stored again, " +
        "a new leaves no state; only while the key is still at --key-version; audited",
    )
    .requiredOption("--service <id>", "the service")
    .requiredOption("--message <id>", "the message id")
    // Not --version: that is the program's own flag, read wherever it stands.
    .requiredOption("--key-version <n>", "the version the check answered new or changed with", positiveInt)
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ weir keys revert --service billing-adapter --message O-00042 --key-version 3`,
    )
    .action(async (options: RevertKeyOptions) => (await import("../actions/keys")).runRevertKey(options, globals()));
}
