import type { Command } from "commander";
import type { GlobalOptions, SimulateOptions } from "../option-types";
import { nonNegativeInt, positiveInt, unitInterval } from "./options";
import { setting } from "@/lib/config";

export function simulateCommand(program: Command, globals: () => GlobalOptions): void {
  program
    .command("simulate")
    .description("drive realistic traffic (projections, redeliveries, producer retries) through a running weir's API")
    .option("--url <url>", "weir's address (env WEIR_URL)", setting("WEIR_URL"))
    .option("--token <token>", "an API token (env WEIR_TOKEN); admin for --setup, else a service token for the demo ids")
    .option("--orders <n>", "orders in the pipeline", positiveInt, 200)
    .option("--rounds <n>", "rounds of events (each evolves ~70% of the orders)", positiveInt, 5)
    .option("--redelivery <share>", "share of deliveries the broker repeats", unitInterval, 0.1)
    .option("--producer-retry <share>", "share of charges the producer sends twice", unitInterval, 0.05)
    .option("--seed <n>", "random seed (same seed, same traffic)", positiveInt, 42)
    .option("--group <id>", "the consumer group that claims events", "demo-mailer")
    .option("--scope <id>", "the idempotency scope of charges", "demo-payments")
    .option("--batch-size <n>", "items per batch request", positiveInt, 250)
    .option("--timeout <ms>", "per-request timeout", positiveInt, 10_000)
    .option("--retries <n>", "retries of a refused request (503, 429, connection refused)", nonNegativeInt, 3)
    .option("--no-setup", "do not register the demo services and group (they already exist)")
    .action(async (options: SimulateOptions) => (await import("../actions/simulate")).runSimulate(options, globals()));
}
