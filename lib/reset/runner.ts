import { findBatch, takeOverStale } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { STALE_RUNNER_SECONDS } from "./constants";
import { runReset, runUndo } from "./run-reset";

// Runs in flight in this process; shared by Next's bundles and the API layer like the store handle.
const RUNS = Symbol.for("weir.resetRuns");
const running = ((globalThis as Record<symbol, Map<number, Promise<unknown>>>)[RUNS] ??= new Map());

/**
 * Starts the batches of a reset or its undo in the background of this
 * long-lived process (one Node process serves the console), so the server
 * action answers at once and the page polls the progress. One run per batch
 * per process; a second process may only take over a stale run.
 */
export function launchRun(getDb: () => Promise<DbOrTx>, batchId: number, kind: "reset" | "undo"): void {
  if (running.has(batchId)) return;
  const run = getDb()
    .then((db) => (kind === "reset" ? runReset(db, batchId) : runUndo(db, batchId)))
    .catch((err: Error) => console.error(`[weir] ${kind} #${batchId} paused: ${err.message}`))
    .finally(() => running.delete(batchId));
  running.set(batchId, run);
}

export const isRunningHere = (batchId: number) => running.has(batchId);

/** Resumes a run whose runner stopped beating (crash, restart or store outage). */
export async function resumeIfStale(db: DbOrTx, getDb: () => Promise<DbOrTx>, batchId: number): Promise<boolean> {
  if (running.has(batchId)) return false;
  if (!(await takeOverStale(db, batchId, STALE_RUNNER_SECONDS))) return false;
  const batch = await findBatch(db, batchId);
  if (batch?.status === "running") launchRun(getDb, batchId, "reset");
  else if (batch?.status === "undoing") launchRun(getDb, batchId, "undo");
  return true;
}

/** Waits for a run of this process to end (tests and shutdown). */
export async function settleRun(batchId: number): Promise<void> {
  await running.get(batchId);
}
