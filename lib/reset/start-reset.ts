import { auditBy } from "@/db/queries/audit";
import { countSelection, insertBatch, transactionStart } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { UnprocessableError } from "@/lib/errors";
import { startResetSchema, type StartResetInput } from "@/lib/validation/reset";
import { CONFIRM_THRESHOLD, RESET_BATCH_SIZE } from "./constants";
import { resetRetentionDays } from "./retention-days";
import { auditTarget, resetView, type ResetView } from "./views";

/**
 * Records a reset and its audit entry in one transaction; the rows are then
 * removed in batches by `runReset`. The count is taken again here, so the
 * typed confirmation guards what will really run, not an old preview.
 */
export async function startReset({
  db,
  actor,
  input,
  batchSize = RESET_BATCH_SIZE,
}: {
  db: DbOrTx;
  actor: Actor;
  input: StartResetInput;
  batchSize?: number;
}): Promise<ResetView> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const { selection, reason, confirmation } = startResetSchema.parse(input);
  const retentionDays = resetRetentionDays();
  try {
    return await db.transaction(async (tx) => {
      const cutoff = await transactionStart(tx);
      const planned = await countSelection(tx, selection);
      if (planned === 0) throw new UnprocessableError("nothing matches this selection; there is nothing to reset");
      if (planned > CONFIRM_THRESHOLD && confirmation?.trim() !== selection.subject) {
        throw new UnprocessableError(
          `this resets ${planned} rows: type "${selection.subject}" to confirm`,
          "unprocessable",
          { planned, subject: selection.subject },
          "confirmation",
        );
      }
      const batch = await insertBatch(tx, {
        kind: selection.kind,
        subject: selection.subject,
        mode: selection.mode,
        messageIds: selection.messageIds ?? null,
        prefix: selection.prefix ?? null,
        changedFrom: selection.from ?? null,
        changedTo: selection.to ?? null,
        cutoff,
        status: "running",
        batchSize,
        planned,
        actor: actor.id,
        actorRole: actor.role,
        reason,
        expiresAt: new Date(cutoff.getTime() + retentionDays * 86_400_000),
      });
      await auditBy(tx, actor, {
        action: "reset.start",
        target: auditTarget(batch),
        affected: planned,
        reason,
        details: {
          batchId: batch.id,
          kind: batch.kind,
          mode: batch.mode,
          messageIds: selection.messageIds?.slice(0, 20) ?? null,
          messageIdCount: selection.messageIds?.length ?? null,
          prefix: batch.prefix,
          from: batch.changedFrom?.toISOString() ?? null,
          to: batch.changedTo?.toISOString() ?? null,
          cutoff: cutoff.toISOString(),
          undoUntil: batch.expiresAt.toISOString(),
        },
      });
      return resetView(batch);
    });
  } catch (err) {
    throw asStoreError(err);
  }
}
