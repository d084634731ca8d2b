import { cleanupLag, runCleanup } from "@/lib/dedup/window/cleanup";
import { runRetention } from "@/lib/erase/retention";
import { cleanupRequestSchema } from "@/lib/validation/window";
import type { GlobalOptions } from "../option-types";
import { counterBar } from "../progress";
import { withStore } from "../store";

// Rows are removed a few statements at a time so the bar moves; each statement is its own short transaction.
const BATCHES_PER_STEP = 5;

export async function runCleanupCommand(options: { batchSize?: number; maxBatches?: number }, globals: GlobalOptions): Promise<void> {
  const { batchSize, maxBatches } = cleanupRequestSchema.parse(options);
  const { databaseUrl, quiet } = globals;
  await withStore({ databaseUrl }, async ({ db }) => {
    const bar = counterBar("cleanup", { quiet });
    const totals = { window: 0, keys: 0, batches: 0 };
    let complete = false;
    const started = performance.now();
    try {
      while (!complete && (maxBatches === undefined || totals.batches < maxBatches)) {
        const step = Math.min(BATCHES_PER_STEP, maxBatches === undefined ? BATCHES_PER_STEP : maxBatches - totals.batches);
        const pass = await runCleanup(db, { batchSize, maxBatches: step });
        totals.window += pass.windowRecordsRemoved;
        totals.keys += pass.idempotencyKeysRemoved;
        totals.batches += pass.batches;
        complete = pass.complete;
        bar.update(totals.window + totals.keys, { batches: totals.batches });
      }
    } finally {
      bar.stop();
    }
    const retention = await runRetention(db, { batchSize, maxBatches });
    const lag = await cleanupLag(db);
    const ms = Math.round(performance.now() - started);
    console.log(
      `removed ${totals.window + totals.keys} rows (${totals.window} window records, ${totals.keys} idempotency keys) ` +
        `in ${totals.batches} batches, ${ms} ms${complete ? "" : "; stopped at --max-batches, run again for the rest"}; lag now ${lag.seconds} s`,
    );
    console.log(
      `retention: removed ${retention.payloadVersionsRemoved} payload versions, ${retention.responsesRemoved} stored responses and ` +
        `${retention.statsMinutesRemoved} per-minute stats past their age limits ` +
        `in ${retention.batches} batches, ${retention.durationMs} ms${retention.complete ? "" : " (stopped at --max-batches)"}`,
    );
  });
}
