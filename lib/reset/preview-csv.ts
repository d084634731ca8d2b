import { selectionChunk } from "@/db/queries/reset";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { keysetCsvStream } from "@/lib/csv";
import { RESET_CSV_MAX_ROWS } from "./constants";
import { resetSelectionSchema, type ResetSelectionInput } from "@/lib/validation/reset";


/**
 * A reset preview's whole selection (not only its sample) as CSV, in message id order, streamed
 * (lib/csv.ts). Whoever may preview a reset may download it: the operator. A bad selection is a
 * validation error and a failing store an error status before anything is sent. At most `maxRows` rows.
 */
export async function resetSelectionCsv({ db, actor, input, maxRows = RESET_CSV_MAX_ROWS }: { db: DbOrTx; actor: Actor; input: ResetSelectionInput; maxRows?: number }): Promise<ReadableStream<Uint8Array>> {
  authorize(actor, "operate");
  const selection = resetSelectionSchema.parse(input);
  try {
    return await keysetCsvStream({
      header: ["message_id", "at", "version"],
      maxRows,
      read: (afterId: string | undefined, limit) => selectionChunk(db, selection, afterId, limit),
      cursorOf: (row) => row.messageId,
      cells: (row) => [row.messageId, row.at, row.version],
    });
  } catch (err) {
    throw asStoreError(err);
  }
}
