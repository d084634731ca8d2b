import type { Command } from "commander";
import type { GlobalOptions } from "../option-types";
import { positiveInt } from "./options";

export function cleanupCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("cleanup")
    .description("remove expired window records (past their grace period) and expired idempotency keys, in bounded batches")
    .option("--batch-size <rows>", "rows per delete statement (default 5000)", positiveInt)
    .option("--max-batches <n>", "stop after this many statements (default: until nothing expired is left)", positiveInt)
    .action(async (options: { batchSize?: number; maxBatches?: number }) => (await import("../actions/cleanup")).runCleanupCommand(options, globals()));
}
