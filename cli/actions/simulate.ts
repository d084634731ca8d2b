import { createWeirClient } from "@weir/client";
import { CliError, EXIT } from "../exit-codes";
import { progressBar } from "../progress";
import { simulateTraffic } from "../simulate";
import type { GlobalOptions, SimulateOptions } from "../option-types";
import { setting } from "@/lib/config";

export async function runSimulate(options: SimulateOptions, globals: GlobalOptions): Promise<void> {
  const token = options.token ?? setting("WEIR_TOKEN");
  if (!token) throw new CliError("an API token is needed: --token or WEIR_TOKEN (create one with `weir tokens create --name simulate --role admin --all`)", EXIT.usage);
  const { quiet } = globals;
  const client = createWeirClient({ baseUrl: options.url, token, timeoutMs: options.timeout, retries: options.retries });
  const bar = progressBar("simulate", options.orders * options.rounds, { quiet, unit: "events" });
  const started = performance.now();
  const tally = await simulateTraffic(
    client,
    {
      orders: options.orders,
      rounds: options.rounds,
      redelivery: options.redelivery,
      producerRetry: options.producerRetry,
      seed: options.seed,
      consumerGroup: options.group,
      scope: options.scope,
      batchSize: options.batchSize,
      setup: options.setup,
    },
    (events) => bar.update(events),
  ).finally(() => bar.stop());
  const seconds = (performance.now() - started) / 1000;
  const checks = tally.checks.new + tally.checks.changed + tally.checks.duplicate;
  console.log(`${tally.events} events in ${seconds.toFixed(1)} s against ${options.url}`);
  console.log(`checks: ${checks} (new ${tally.checks.new}, changed ${tally.checks.changed}, duplicate ${tally.checks.duplicate})`);
  console.log(`claims: ${tally.claims.new + tally.claims.duplicate} (new ${tally.claims.new}, duplicate ${tally.claims.duplicate}, late redeliveries ${tally.claims.late})`);
  console.log(`idempotency begins: started ${tally.begins.started}, replayed ${tally.begins.completed}, in progress ${tally.begins.in_progress}, mismatch ${tally.begins.mismatch}`);
}
