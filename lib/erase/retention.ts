import { deleteByShard, isCitus } from "@/db/citus";
import { oldPayloadsBatch, oldResponsesBatch } from "@/db/queries/retention-citus";
import { cutoffOf, deleteOldPayloadsStatement, deleteOldResponsesStatement, retentionLimits } from "@/db/queries/retention";
import { STATS_SUBJECT_KINDS } from "@/db/queries/console-stats";
import { deleteOldMinutesStatement, minutesCutoff, oldMinutesBatch } from "@/db/queries/stats-retention";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { setting } from "@/lib/config";
import { ERASE_BATCH_SIZE } from "./constants";

export interface RetentionOptions {
  /** Rows per delete statement (default 5000): each is its own short transaction. */
  batchSize?: number;
  /** Stop after this many statements; the next pass continues where this one stopped. */
  maxBatches?: number;
  /** How long per-minute stats are kept (default WEIR_STATS_MINUTE_RETENTION). */
  statsMinuteRetentionMs?: number;
  /**
   * Statements of per-minute stats a pass deletes at most (default 20, 100,000 rows): the first pass
   * after an upgrade may find years of minutes, which then go over many passes rather than holding
   * the cleanup schedule (retention runs after each cleanup pass) for all of them.
   */
  statsMinuteBatches?: number;
}

export interface RetentionResult {
  /** Payload versions older than their service's payload age limit. */
  payloadVersionsRemoved: number;
  /** Completed idempotency keys whose stored response was older than their scope's response age limit. */
  responsesRemoved: number;
  /** Per-minute stats older than WEIR_STATS_MINUTE_RETENTION, already summed into the rollups. */
  statsMinutesRemoved: number;
  batches: number;
  /** False when `maxBatches` stopped the pass before everything past its limit was gone. */
  complete: boolean;
  durationMs: number;
}

/**
 * The day each store's minutes were last cleared up to. The cutoff moves once a day, so the passes
 * between (one a minute by default) read it and skip the deletes.
 */
const minutesClearedBefore = new WeakMap<object, number>();

/**
 * One retention pass: for each service with a payload age limit, its older payload versions; for each
 * idempotency scope with a response age limit, its keys whose stored response is older; and the
 * per-minute stats past WEIR_STATS_MINUTE_RETENTION. Bounded autocommit batches, like cleanup; safe
 * to run concurrently with decisions and with itself.
 */
export async function runRetention(db: DbOrTx, options: RetentionOptions = {}): Promise<RetentionResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? ERASE_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  const result = { payloadVersionsRemoved: 0, responsesRemoved: 0, statsMinutesRemoved: 0, batches: 0, complete: true };
  const budgetLeft = () => {
    if (result.batches < maxBatches) return true;
    result.complete = false;
    return false;
  };
  try {
    const citus = await isCitus(db);
    subjects: for (const limit of await retentionLimits(db)) {
      const cutoff = await cutoffOf(db, limit.seconds);
      for (;;) {
        if (!budgetLeft()) break subjects;
        result.batches++;
        const removed = citus ? await deleteBatchByShard(db, limit, cutoff, batchSize) : (await runRaw(db, deleteStatement(limit, cutoff, batchSize))).length;
        if (limit.kind === "service") result.payloadVersionsRemoved += removed;
        else result.responsesRemoved += removed;
        if (removed < batchSize) break;
      }
    }
    if (result.complete) {
      const retentionMs = options.statsMinuteRetentionMs ?? setting("WEIR_STATS_MINUTE_RETENTION");
      const lastBatch = result.batches + (options.statsMinuteBatches ?? 20);
      await removeOldMinutes(db, citus, retentionMs, batchSize, () => result.batches < lastBatch && budgetLeft(), result);
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

/**
 * Per-minute stats before the day minutesCutoff gives, kind by kind, while `mayRun` allows; the day
 * is noted as cleared only once every kind is done, so a pass cut short is taken up by the next.
 */
async function removeOldMinutes(
  db: DbOrTx,
  citus: boolean,
  retentionMs: number,
  batchSize: number,
  mayRun: () => boolean,
  result: { statsMinutesRemoved: number; batches: number },
): Promise<void> {
  const cutoff = await minutesCutoff(db, retentionMs);
  if (cutoff === null || minutesClearedBefore.get(db) === cutoff.getTime()) return;
  for (const kind of STATS_SUBJECT_KINDS) {
    for (;;) {
      if (!mayRun()) return;
      result.batches++;
      const removed = citus
        ? await deleteByShard(db, oldMinutesBatch(kind, cutoff, batchSize))
        : (await runRaw(db, deleteOldMinutesStatement(kind, cutoff, batchSize))).length;
      result.statsMinutesRemoved += removed;
      if (removed < batchSize) break;
    }
  }
  minutesClearedBefore.set(db, cutoff.getTime());
}
