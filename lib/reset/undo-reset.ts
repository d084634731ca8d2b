import { auditBy } from "@/db/queries/audit";
import { findBatch, moveBatch } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { undoResetSchema, type UndoResetInput } from "@/lib/validation/reset";
import { auditTarget, resetView, type ResetView } from "./views";

/**
 * Marks a finished reset for undo, with its audit entry, in one transaction;
 * `runUndo` then puts the kept rows back in batches, skipping keys that have
 * state again.
 */
export async function undoReset({ db, actor, input }: { db: DbOrTx; actor: Actor; input: UndoResetInput }): Promise<ResetView> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const { batchId, reason } = undoResetSchema.parse(input);
  try {
    return await db.transaction(async (tx) => {
      const batch = await findBatch(tx, batchId, true);
      if (!batch) throw new NotFoundError(`reset #${batchId} does not exist`, "batchId");
      const view = resetView(batch);
      if (!view.undoable) {
        const why =
          batch.status === "running"
            ? "is still running"
            : batch.status === "undoing" || batch.status === "undone"
              ? "has already been undone"
              : "is past its retention period";
        throw new ConflictError(`reset #${batchId} ${why}; it cannot be undone`);
      }
      const moved = await moveBatch(tx, batchId, ["done", "failed"], {
        status: "undoing",
        cursor: null,
        undoActor: actor.id,
        undoActorRole: actor.role,
        undoReason: reason,
        heartbeatAt: new Date(),
      });
      if (!moved) throw new ConflictError(`reset #${batchId} changed while it was being undone; reload and retry`);
      await auditBy(tx, actor, {
        action: "reset.undo",
        target: auditTarget(batch),
        affected: batch.affected,
        reason,
        details: { batchId, kind: batch.kind, resetBy: batch.actor, resetAt: batch.createdAt.toISOString() },
      });
      return resetView(moved);
    });
  } catch (err) {
    throw asStoreError(err);
  }
}
