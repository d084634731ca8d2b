import { countSelection, sampleSelection } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { resetSelectionSchema, type ResetSelectionInput } from "@/lib/validation/reset";
import { CONFIRM_THRESHOLD, SAMPLE_SIZE } from "./constants";

export interface ResetPreview {
  count: number;
  sample: { messageId: string; at: string; version: number | null }[];
  /** For a list: ids given that have no state (nothing to reset for them). */
  missing: number | null;
  /** The word to type when `count` is above the threshold; null when no confirmation is needed. */
  confirmWord: string | null;
}

/** Dry run: how many rows a reset would remove and a sample of them. Reads only. */
export async function previewReset({
  db,
  actor,
  input,
}: {
  db: DbOrTx;
  actor: Actor;
  input: ResetSelectionInput;
}): Promise<ResetPreview> {
  authorize(actor, "operate");
  const selection = resetSelectionSchema.parse(input);
  try {
    const [count, sample] = await Promise.all([
      countSelection(db, selection),
      sampleSelection(db, selection, SAMPLE_SIZE),
    ]);
    return {
      count,
      sample: sample.map((row) => ({ messageId: row.messageId, at: row.at.toISOString(), version: row.version })),
      missing: selection.mode === "filter" ? null : (selection.messageIds?.length ?? 0) - count,
      confirmWord: count > CONFIRM_THRESHOLD ? selection.subject : null,
    };
  } catch (err) {
    throw asStoreError(err);
  }
}
