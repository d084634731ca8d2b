import { Option, type Command } from "commander";
import type { ExportOptions, GlobalOptions } from "../option-types";
import { positiveInt } from "./options";

export function exportCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("export")
    .description("export the keys of a service (message id, version, hash, first seen, last changed) as NDJSON or CSV")
    .requiredOption("--service <id>", "the service whose keys to export")
    .addOption(new Option("--format <format>", "output format").choices(["ndjson", "csv"]).default("ndjson"))
    .option("-o, --output <file>", "write to a file instead of stdout")
    .option("--prefix <text>", "only message ids starting with this")
    .option("--from <time>", "only keys changed at or after this ISO time")
    .option("--to <time>", "only keys changed before this ISO time")
    .option("--page-size <rows>", "rows read per query", positiveInt, 5000)
    .action(async (options: ExportOptions) => (await import("../actions/export")).runExport(options, globals()));
}
