import { findBatch } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { resetView, type ResetView } from "@/lib/reset/views";

export async function loadReset(db: DbOrTx, id: number): Promise<ResetView | null> {
  const batch = await findBatch(db, id);
  return batch ? resetView(batch) : null;
}
