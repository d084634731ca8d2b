// First: a bad variable stops the CLI before any module reads one.
import "@/lib/config/check-at-start";
import { Command, CommanderError } from "commander";
import { claimsCommand } from "./commands/claims";
import { cleanupCommand } from "./commands/cleanup";
import { eraseCommand, retentionCommand } from "./commands/erase";
import { replayResetCommand } from "./commands/replay-reset";
import { exportCommand } from "./commands/export";
import { groupsCommand } from "./commands/groups";
import { journalCommand } from "./commands/journal";
import { keysCommand } from "./commands/keys";
import { migrateCommand } from "./commands/migrate";
import { resetCommand } from "./commands/reset";
import { rollupsCommand } from "./commands/rollups";
import { servicesCommand } from "./commands/services";
import { simulateCommand } from "./commands/simulate";
import { tokensCommand } from "./commands/tokens";
import { usersCommand } from "./commands/users";
import { EXIT } from "./exit-codes";
import type { GlobalOptions } from "./option-types";

const EPILOGUE = `
The store: --database-url, else DATABASE_URL, else the embedded PGlite folder
(WEIR_DATA_DIR, default .weir-data/pglite; stop weir first, one process holds it).

Exit codes: 0 done, 1 failed, 2 bad usage or input, 3 database or weir
unreachable, or the database not migrated (nothing was changed), 4 refused
(not found, needs --confirm, conflict).`;

export function buildProgram(): Command {
  const program = new Command()
    .name("weir")
    .description("operate weir: migrations, service and group settings, key reverts, claim releases, resets before a replay, erasures, exports, the decision journal, cleanup, stats rollups, users, tokens and simulated traffic")
    .version(process.env.npm_package_version ?? "0.1.0")
    .option("--database-url <url>", "PostgreSQL URL (default: DATABASE_URL)")
    .option("-q, --quiet", "no progress bars")
    .showHelpAfterError("(run with --help for usage)")
    .addHelpText("after", EPILOGUE)
    .exitOverride();
  const globals = () => program.opts<GlobalOptions>();
  for (const add of [
    migrateCommand,
    servicesCommand,
    groupsCommand,
    keysCommand,
    claimsCommand,
    resetCommand,
    replayResetCommand,
    eraseCommand,
    retentionCommand,
    exportCommand,
    journalCommand,
    cleanupCommand,
    rollupsCommand,
    usersCommand,
    tokensCommand,
    simulateCommand,
  ]) {
    add(program, globals);
  }
  for (const command of program.commands) {
    command.exitOverride();
    for (const sub of command.commands) sub.exitOverride();
  }
  return program;
}

/** Runs the CLI and returns its exit code; errors are printed as one readable line. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length <= 2) {
    program.outputHelp();
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed the message or the help already.
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return EXIT.ok;
      return EXIT.usage;
    }
    const { describeError } = await import("./errors");
    const { message, exitCode } = describeError(err);
    console.error(`weir: ${message}`);
    return exitCode;
  }
}
