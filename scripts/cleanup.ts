import { openStore } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { cleanupLag, runCleanup } from "@/lib/dedup/window/cleanup";
import { runRetention } from "@/lib/erase/retention";

/**
 * One cleanup pass against DATABASE_URL, or the embedded store when it is unset.
 * Usage: tsx scripts/cleanup.ts [--batch-size N] [--max-batches N]
 */
function option(name: string): number | undefined {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}

async function main(): Promise<void> {
  const store = await openStore(storeConfigFromEnv());
  try {
    const result = await runCleanup(store.db, { batchSize: option("--batch-size"), maxBatches: option("--max-batches") });
    const retention = await runRetention(store.db, { batchSize: option("--batch-size"), maxBatches: option("--max-batches") });
    const lag = await cleanupLag(store.db);
    console.log(
      `removed ${result.removed} rows (${result.windowRecordsRemoved} window records, ${result.idempotencyKeysRemoved} idempotency keys) ` +
        `in ${result.batches} batches, ${result.durationMs} ms${result.complete ? "" : " (stopped at --max-batches)"}; lag ${lag.seconds} s`,
    );
    console.log(
      `retention: removed ${retention.payloadVersionsRemoved} payload versions, ${retention.responsesRemoved} stored responses, ` +
        `${retention.statsMinutesRemoved} per-minute stats in ${retention.durationMs} ms`,
    );
  } finally {
    await store.close();
  }
}

main().catch((err: Error) => {
  console.error(`[weir] cleanup failed: ${err.message}`);
  process.exitCode = 1;
});
