import { resetStep, restoreStep, purgeExpiredRows } from "@/db/queries/console-reset-steps";
import { insertAudit } from "@/db/queries/audit";
import { findBatch, moveBatch, type ResetBatchRow } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { isStoreUnavailable } from "@/db/unavailable";
import { RESET_BATCH_SIZE } from "./constants";
import { auditTarget } from "./views";

/**
 * Executes a started reset batch by batch until its selection is exhausted,
 * then marks it done with a completion audit row. Safe to run twice at once or
 * to resume after a crash: every batch re-selects what is left after the cursor.
 */
export async function runReset(db: DbOrTx, batchId: number): Promise<ResetBatchRow | undefined> {
  await purgeExpired(db);
  return drive(db, batchId, "running", async (batch) => {
    const step = await resetStep(db, batch);
    return step.scanned < batch.batchSize;
  });
}

/** Puts back a reset marked for undo, batch by batch, then marks it undone with an audit row. */
export async function runUndo(db: DbOrTx, batchId: number): Promise<ResetBatchRow | undefined> {
  return drive(db, batchId, "undoing", async (batch) => {
    const step = await restoreStep(db, batch, batch.batchSize);
    return step.scanned < batch.batchSize;
  });
}

async function drive(
  db: DbOrTx,
  batchId: number,
  status: "running" | "undoing",
  step: (batch: ResetBatchRow) => Promise<boolean>,
): Promise<ResetBatchRow | undefined> {
  try {
    for (;;) {
      const batch = await findBatch(db, batchId);
      if (!batch || batch.status !== status) return batch;
      if (await step(batch)) return await finish(db, batchId, status);
    }
  } catch (err) {
    // An outage leaves the batch running with a stale heartbeat: it is resumed later, not failed.
    if (isStoreUnavailable(err)) throw err;
    console.error(`[weir] reset #${batchId} stopped:`, err);
    if (status === "running") {
      await moveBatch(db, batchId, ["running"], { status: "failed", finishedAt: new Date() }).catch(() => undefined);
    }
    throw err;
  }
}

async function finish(db: DbOrTx, batchId: number, status: "running" | "undoing"): Promise<ResetBatchRow | undefined> {
  return db.transaction(async (tx) => {
    const done =
      status === "running"
        ? await moveBatch(tx, batchId, ["running"], { status: "done", finishedAt: new Date() })
        : await moveBatch(tx, batchId, ["undoing"], { status: "undone", undoneAt: new Date() });
    if (!done) return findBatch(tx, batchId);
    const undo = status === "undoing";
    await insertAudit(tx, {
      actor: undo ? (done.undoActor ?? done.actor) : done.actor,
      actorRole: undo ? (done.undoActorRole ?? done.actorRole) : done.actorRole,
      action: undo ? "reset.undo_complete" : "reset.complete",
      target: auditTarget(done),
      affected: undo ? done.restored : done.affected,
      reason: undo ? done.undoReason : done.reason,
      details: undo
        ? { batchId, restored: done.restored, skippedWithNewState: done.skipped }
        : { batchId, planned: done.planned, affected: done.affected },
    });
    return done;
  });
}

async function purgeExpired(db: DbOrTx): Promise<void> {
  while ((await purgeExpiredRows(db, RESET_BATCH_SIZE)) === RESET_BATCH_SIZE);
}
