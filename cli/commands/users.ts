import { Option, type Command } from "commander";
import type { CreateUserOptions, GlobalOptions, UserChangeOptions } from "../option-types";

export function usersCommand(program: Command, globals: () => GlobalOptions): void {
  const users = program.command("users").description("console users");
  users
    .command("create")
    .description("create a console user (the first admin, or anyone, without signing in), audited")
    .requiredOption("--email <email>", "the sign-in email")
    .option("--name <name>", "display name (default: the email's local part)")
    .addOption(new Option("--role <role>", "console role").choices(["viewer", "operator", "admin"]).default("viewer"))
    .option("--password-stdin", "read the password from stdin (otherwise a strong one is generated and printed once)")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .action(async (options: CreateUserOptions) => (await import("../actions/users")).runCreateUser(options, globals()));
  users
    .command("disable")
    .description("disable a user: their password is cleared and every session ends (reset-password enables them again), audited")
    .requiredOption("--email <email>", "the user's sign-in email")
    .requiredOption("--reason <why>", "why, for the audit log")
    .option("--revoke-tokens", "also revoke every live API token the user created (they keep working otherwise)")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .action(async (options: UserChangeOptions) => (await import("../actions/users")).runDisableUser(options, globals()));
  users
    .command("reset-password")
    .description("give a user a new password and end their sessions (enables a disabled user), audited")
    .requiredOption("--email <email>", "the user's sign-in email")
    .requiredOption("--reason <why>", "why, for the audit log")
    .option("--password-stdin", "read the password from stdin (otherwise a strong one is generated and printed once)")
    .option("--actor <name>", "who to name in the audit log (default: the OS user)")
    .action(async (options: UserChangeOptions) => (await import("../actions/users")).runResetPassword(options, globals()));
}
