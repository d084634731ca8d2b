import { deleteByShard, isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { deleteExpiredKeys, idempotencyCleanupLag } from "@/lib/dedup/idempotency/cleanup";
import {
  expiredKeysBatch,
  expiredRecordsBatch,
  groupCutoffStatement,
  groupsToCleanCitusStatement,
  windowLagCitusStatement,
} from "./cleanup-citus";
import { deleteExpiredStatement, groupsToCleanStatement, windowLagStatement } from "./cleanup-statements";
import { defaultTtlSeconds } from "./default-ttl";
import { setting } from "@/lib/config";

export const DEFAULT_CLEANUP_BATCH_SIZE = 5000;

export interface CleanupOptions {
  /** Rows per delete statement (default 5000): each statement holds its row locks only briefly. */
  batchSize?: number;
  /** Stop after this many statements; the next pass continues where this one stopped. */
  maxBatches?: number;
  /**
   * Share of the pass spent deleting (0-1]; after each full batch the pass rests
   * in proportion, so claims keep their latency while a backlog of millions goes.
   * Default WEIR_CLEANUP_DUTY, else 0.5.
   */
  duty?: number;
}

function dutyFromEnv(): number {
  return setting("WEIR_CLEANUP_DUTY");
}

/** Rests after a full batch that took `ms`, so that deleting takes `duty` of the time (at most 1 s at once). */
async function rest(ms: number, duty: number): Promise<void> {
  if (duty >= 1) return;
  await new Promise((resolve) => setTimeout(resolve, Math.min(1000, (ms * (1 - duty)) / duty)));
}

export interface CleanupResult {
  windowRecordsRemoved: number;
  idempotencyKeysRemoved: number;
  removed: number;
  batches: number;
  /** False when `maxBatches` stopped the pass before everything expired was gone. */
  complete: boolean;
  durationMs: number;
}

export interface CleanupLag {
  /** The larger of the two lags below. */
  seconds: number;
  /** How long the oldest window record past its window and grace period has been waiting. */
  windowSeconds: number;
  /** How long the oldest expired idempotency key has been waiting. */
  idempotencySeconds: number;
}

/**
 * One cleanup pass: expired window records past their grace period, group by
 * group, then expired idempotency keys, each in bounded autocommit batches.
 * Safe to run concurrently with claims, with itself and to re-run.
 */
export async function runCleanup(db: DbOrTx, options: CleanupOptions = {}): Promise<CleanupResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_CLEANUP_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  const duty = options.duty ?? dutyFromEnv();
  let batches = 0;
  let windowRecordsRemoved = 0;
  let idempotencyKeysRemoved = 0;
  let complete = true;
  try {
    const ttl = defaultTtlSeconds();
    const citus = await isCitus(db);
    const groups = await runRaw<{ consumer_group: string }>(db, (citus ? groupsToCleanCitusStatement : groupsToCleanStatement)(ttl));
    groups: for (const { consumer_group: group } of groups) {
      const deleteBatch = citus ? await citusGroupDelete(db, group, ttl, batchSize) : plainGroupDelete(group, ttl, batchSize);
      for (;;) {
        if (batches >= maxBatches) {
          complete = false;
          break groups;
        }
        batches++;
        const batchStarted = performance.now();
        const removed = await deleteBatch(db);
        windowRecordsRemoved += removed;
        if (removed < batchSize) break;
        await rest(performance.now() - batchStarted, duty);
      }
    }
    while (complete) {
      if (batches >= maxBatches) {
        complete = false;
        break;
      }
      batches++;
      const batchStarted = performance.now();
      const removed = citus ? await deleteExpiredKeysCitus(db, batchSize) : await deleteExpiredKeys(db, batchSize);
      idempotencyKeysRemoved += removed;
      if (removed < batchSize) break;
      await rest(performance.now() - batchStarted, duty);
    }
  } catch (err) {
    throw asStoreError(err);
  }
  return {
    windowRecordsRemoved,
    idempotencyKeysRemoved,
    removed: windowRecordsRemoved + idempotencyKeysRemoved,
    batches,
    complete,
    durationMs: Math.round(performance.now() - started),
  };
}

type BatchDelete = (db: DbOrTx) => Promise<number>;

function plainGroupDelete(group: string, ttl: number, batchSize: number): BatchDelete {
  return async (db) => Number((await runRaw<{ removed: number }>(db, deleteExpiredStatement(group, ttl, batchSize)))[0]?.removed ?? 0);
}

/** A group's batch delete on Citus, shard by shard: the cutoff read once per pass from the database clock, then passed in. */
async function citusGroupDelete(db: DbOrTx, group: string, ttl: number, batchSize: number): Promise<BatchDelete> {
  const [row] = await runRaw<{ cutoff: Date }>(db, groupCutoffStatement(group, ttl));
  return (on) => deleteByShard(on, expiredRecordsBatch(group, row!.cutoff, batchSize));
}

async function deleteExpiredKeysCitus(db: DbOrTx, batchSize: number): Promise<number> {
  const [row] = await runRaw<{ now: Date }>(db, { name: "weir_now_v1", text: "select now() as now", values: [] });
  return deleteByShard(db, expiredKeysBatch(row!.now, batchSize));
}

/** How far cleanup is behind: 0 when nothing removable is left. */
export async function cleanupLag(db: DbOrTx): Promise<CleanupLag> {
  try {
    const lagStatement = (await isCitus(db)) ? windowLagCitusStatement : windowLagStatement;
    const [row] = await runRaw<{ lag_seconds: number }>(db, lagStatement(defaultTtlSeconds()));
    const windowSeconds = round(Math.max(0, Number(row?.lag_seconds ?? 0)));
    const idempotencySeconds = round(await idempotencyCleanupLag(db));
    return { seconds: Math.max(windowSeconds, idempotencySeconds), windowSeconds, idempotencySeconds };
  } catch (err) {
    throw asStoreError(err);
  }
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

export interface CleanupSchedule {
  /** Stops the timer and waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * Runs a cleanup pass every `intervalMs`, the next one only after the previous
 * finished (no overlap). The timer does not keep the process alive.
 */
export function startCleanupSchedule(
  getDb: () => Promise<DbOrTx>,
  intervalMs = 60_000,
  options: CleanupOptions & {
    onPass?: (result: CleanupResult) => void;
    /** More work of the same kind in the same tick (the retention job): never overlaps the next pass. */
    afterPass?: (db: DbOrTx) => Promise<unknown>;
  } = {},
): CleanupSchedule {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  const tick = () => {
    inFlight = getDb()
      .then(async (db) => {
        options.onPass?.(await runCleanup(db, options));
        await options.afterPass?.(db);
      })
      .catch((err: Error) => console.error(`[weir] cleanup pass failed, will retry: ${err.message}`))
      .finally(() => {
        inFlight = undefined;
        schedule();
      });
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
