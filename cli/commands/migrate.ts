import type { Command } from "commander";
import type { GlobalOptions } from "../option-types";

export function migrateCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("migrate")
    .description("apply pending schema migrations (safe to run from several nodes at once: one migrates, the others wait)")
    .action(async () => (await import("../actions/migrate")).runMigrate(globals()));
}
