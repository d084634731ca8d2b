import { Option, type Command } from "commander";
import type { CreateTokenOptions, GlobalOptions, RevokeTokenOptions } from "../option-types";
import { collect, positiveInt } from "./options";

export function tokensCommand(program: Command, globals: () => GlobalOptions): void {
  const tokens = program.command("tokens").description("API tokens for services and automation");
  tokens
    .command("create")
    .description("create an API token scoped to services, consumer groups and idempotency scopes; prints the secret once")
    .requiredOption("--name <name>", "what the token is for, e.g. \"billing-adapter prod\"")
    .addOption(new Option("--role <role>", "what it may do").choices(["service", "viewer", "operator", "admin"]).default("service"))
    .option("--service <id>", "a service it may check and read (repeatable, comma-separated, '*' for all)", collect)
    .option("--group <id>", "a consumer group it may claim in (repeatable, '*' for all)", collect)
    .option("--scope <id>", "an idempotency scope it may use (repeatable, '*' for all)", collect)
    .option("--all", "every service, group and scope (\"*\" for each): e.g. for Prometheus or an operator")
    .option("--expires-in-days <days>", "expiry (default: never)", positiveInt)
    .option("--max-in-flight <n>", "requests it may have in flight on each node (default: a quarter of WEIR_MAX_IN_FLIGHT)", positiveInt)
    .option("--requests-per-second <n>", "requests per second it may send to each node (default: no limit)", positiveInt)
    .option("--reason <why>", "why, for the audit log")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .option("--json", "print the secret and the token's details as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ weir tokens create --name "billing-adapter prod" --service billing-adapter --scope payments
  $ weir tokens create --name prometheus --role viewer --all
  $ weir tokens create --name "replay job" --service orders --max-in-flight 32 --requests-per-second 200`,
    )
    .action(async (options: CreateTokenOptions) => (await import("../actions/tokens")).runCreateToken(options, globals()));
  tokens
    .command("list")
    .description("API tokens (never their secrets) with their scopes and limits")
    .option("--all", "revoked tokens too")
    .option("--json", "one JSON object per line")
    .action(async (options: { all?: boolean; json?: boolean }) => (await import("../actions/tokens")).runListTokens(options, globals()));
  tokens
    .command("revoke <id>")
    .description("revoke an API token: refused at once on this node, within 10 s on every node")
    .requiredOption("--reason <why>", "why, for the audit log (required)")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .addHelpText("after", `\nExample:\n  $ weir tokens revoke tok_AbCdEf12 --reason "leaked in a CI log"`)
    .action(async (id: string, options: RevokeTokenOptions) => (await import("../actions/tokens")).runRevokeToken(id, options, globals()));
}
