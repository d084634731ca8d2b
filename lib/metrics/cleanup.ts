import type { DbOrTx } from "@/db/types";
import { cleanupLag, type CleanupLag, type CleanupResult } from "@/lib/dedup/window/cleanup";
import { countStoreError } from "./outcomes";
import { metrics } from "./registry";
import { isStoreUnavailable } from "@/db/unavailable";

type PassCounts = Pick<CleanupResult, "windowRecordsRemoved" | "idempotencyKeysRemoved" | "complete">;

export function observeCleanupPass(result: PassCounts): void {
  metrics.cleanupRemoved.inc({ kind: "window_record" }, result.windowRecordsRemoved);
  metrics.cleanupRemoved.inc({ kind: "idempotency_key" }, result.idempotencyKeysRemoved);
  metrics.cleanupPasses.inc({ result: result.complete ? "complete" : "partial" });
  metrics.cleanupLastPass.set(Date.now() / 1000);
}

export function observeCleanupLag(lag: CleanupLag): void {
  metrics.cleanupLag.set({ kind: "window" }, lag.windowSeconds);
  metrics.cleanupLag.set({ kind: "idempotency" }, lag.idempotencySeconds);
  metrics.cleanupLag.set({ kind: "max" }, lag.seconds);
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The answer of POST /api/v1/cleanup: rows removed and the lag measured after the pass. */
export function observeCleanupBody(body: unknown): void {
  const b = body as Partial<CleanupResult & { lag: Partial<CleanupLag> }> | undefined;
  if (!b || !isNumber(b.windowRecordsRemoved) || !isNumber(b.idempotencyKeysRemoved)) return;
  observeCleanupPass({ windowRecordsRemoved: b.windowRecordsRemoved, idempotencyKeysRemoved: b.idempotencyKeysRemoved, complete: b.complete !== false });
  const lag = b.lag;
  if (lag && isNumber(lag.seconds) && isNumber(lag.windowSeconds) && isNumber(lag.idempotencySeconds)) {
    observeCleanupLag({ seconds: lag.seconds, windowSeconds: lag.windowSeconds, idempotencySeconds: lag.idempotencySeconds });
  }
}

/**
 * The `onPass` hook of the scheduled cleanup: counts what the pass removed,
 * then measures the lag it left (off the pass's path; a failed read keeps the
 * last value).
 */
export function cleanupPassObserver(getDb: () => Promise<DbOrTx>): (result: CleanupResult) => void {
  return (result) => {
    observeCleanupPass(result);
    getDb()
      .then((db) => cleanupLag(db))
      .then(observeCleanupLag)
      .catch((err: unknown) => {
        if (isStoreUnavailable(err)) countStoreError("cleanup");
      });
  };
}
