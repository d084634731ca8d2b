import { deleteByShard, isCitus } from "@/db/citus";
import { oldPayloadsBatch, oldResponsesBatch } from "@/db/queries/retention-citus";
import { cutoffOf, deleteOldPayloadsStatement, deleteOldResponsesStatement, retentionLimits } from "@/db/queries/retention";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ERASE_BATCH_SIZE } from "./constants";

export interface RetentionOptions {
  /** Rows per delete statement (default 5000): each is its own short transaction. */
  batchSize?: number;
  /** Stop after this many statements; the next pass continues where this one stopped. */
  maxBatches?: number;
}

export interface RetentionResult {
  /** Payload versions older than their service's payload age limit. */
  payloadVersionsRemoved: number;
  /** Completed idempotency keys whose stored response was older than their scope's response age limit. */
  responsesRemoved: number;
  batches: number;
  /** False when `maxBatches` stopped the pass before everything past its limit was gone. */
  complete: boolean;
  durationMs: number;
}

/**
 * One retention pass: for each service with a payload age limit, its older payload versions; for each
 * idempotency scope with a response age limit, its keys whose stored response is older. Bounded
 * autocommit batches, like cleanup; safe to run concurrently with decisions and with itself.
 */
export async function runRetention(db: DbOrTx, options: RetentionOptions = {}): Promise<RetentionResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? ERASE_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  const result = { payloadVersionsRemoved: 0, responsesRemoved: 0, batches: 0, complete: true };
  try {
    const citus = await isCitus(db);
    subjects: for (const limit of await retentionLimits(db)) {
      const cutoff = await cutoffOf(db, limit.seconds);
      for (;;) {
        if (result.batches >= maxBatches) {
          result.complete = false;
          break subjects;
        }
        result.batches++;
        const removed = citus ? await deleteBatchByShard(db, limit, cutoff, batchSize) : (await runRaw(db, deleteStatement(limit, cutoff, batchSize))).length;
        if (limit.kind === "service") result.payloadVersionsRemoved += removed;
        else result.responsesRemoved += removed;
        if (removed < batchSize) break;
      }
    }
  } catch (err) {
    throw asStoreError(err);
  }
  return { ...result, durationMs: Math.round(performance.now() - started) };
}

type Limit = Awaited<ReturnType<typeof retentionLimits>>[number];

const deleteStatement = (limit: Limit, cutoff: Date, batchSize: number) =>
  limit.kind === "service" ? deleteOldPayloadsStatement(limit.id, cutoff, batchSize) : deleteOldResponsesStatement(limit.id, cutoff, batchSize);

/** On Citus a batch is deleted shard by shard, each part committed on its worker (no two-phase commit). */
const deleteBatchByShard = (db: DbOrTx, limit: Limit, cutoff: Date, batchSize: number) =>
  limit.kind === "service" ? deleteByShard(db, oldPayloadsBatch(limit.id, cutoff, batchSize)) : deleteByShard(db, oldResponsesBatch(limit.id, cutoff, batchSize));
