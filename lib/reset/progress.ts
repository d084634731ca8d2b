import { findBatch, listBatches, type ResetKind } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { authorize, can } from "@/lib/auth/authorize";
import { NotFoundError } from "@/lib/errors";
import { batchIdSchema } from "@/lib/validation/reset";
import { resumeIfStale } from "./runner";
import { resetView, type ResetView } from "./views";

/**
 * The state of one reset, for the page that polls it. When an operator looks
 * at a run whose runner died, the run is resumed: its work was authorised and
 * audited when it started.
 */
export async function getResetProgress({
  db,
  actor,
  input,
  getDb,
}: {
  db: DbOrTx;
  actor: Actor;
  input: { batchId: unknown };
  getDb: () => Promise<DbOrTx>;
}): Promise<ResetView> {
  authorize(actor, "read");
  const batchId = batchIdSchema.parse(input.batchId);
  let batch = await findBatch(db, batchId);
  if (!batch) throw new NotFoundError(`reset #${batchId} does not exist`, "batchId");
  if ((batch.status === "running" || batch.status === "undoing") && can(actor, "operate")) {
    if (await resumeIfStale(db, getDb, batchId)) batch = (await findBatch(db, batchId)) ?? batch;
  }
  return resetView(batch);
}

export async function listResets(db: DbOrTx, filter: { kind?: ResetKind; subject?: string; limit?: number } = {}) {
  const rows = await listBatches(db, { ...filter, limit: filter.limit ?? 50 });
  return rows.map((row) => resetView(row));
}
