import type { Command } from "commander";
import type { GlobalOptions, ReleaseClaimOptions } from "../option-types";

export function claimsCommand(program: Command, globals: () => GlobalOptions): void {
  const claims = program.command("claims").description("window claims of consumer groups");
  claims
    .command("release")
    .description(
      "forget a claim whose work failed, so a redelivery is claimed again (POST /api/v1/claim/release); " +
        "nothing to release is no error. Not audited: a machine action on one key",
    )
    .requiredOption("--group <id>", "the consumer group")
    .requiredOption("--message <id>", "the message id")
    .option("--claimed-at <time>", "the claim's windowStartedAt (ISO 8601): refused if the key was claimed again since")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ weir claims release --group mailer --message evt-42 --claimed-at 2026-01-31T12:00:00.000Z`,
    )
    .action(async (options: ReleaseClaimOptions) => (await import("../actions/claims")).runReleaseClaim(options, globals()));
}
