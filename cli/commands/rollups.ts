import type { Command } from "commander";
import type { GlobalOptions } from "../option-types";

export function rollupsCommand(program: Command, globals: () => GlobalOptions): void {
  const rollups = program.command("rollups").description("the stats rollups the console's charts and totals read (15-minute, hourly, daily)");
  rollups
    .command("rebuild")
    .description(
      "sum every rollup again from the per-minute stats, from the first minute: after minutes were written for times already rolled up, or after nodes older than migration 0022 rolled up for more than 3 hours",
    )
    .action(async () => (await import("../actions/rollups")).runRollupsRebuild(globals()));
}
