import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { callByNode } from "../routed";
import { claimOneStatement, claimOnNodeStatement, type ClaimKey, type ClaimRow } from "./claim-statement";

/**
 * Citus: claims with distinct keys, one call per worker holding their keys (callByNode). A call
 * runs on its worker, each item through the one-key function (slide and lost race included); a
 * worker with one item (and a single claim) calls that function directly.
 * Rows in the order of `keys`, one per key.
 */
export async function claimByNode(db: DbOrTx, keys: readonly ClaimKey[], ttl: number): Promise<ClaimRow[]> {
  const rows = await callByNode(db, "window_records", keys, (key) => key.messageId, async (group, on) => {
    if (group.length === 1) return (await runRaw<ClaimRow>(on, claimOneStatement(group[0]!, ttl))).map((row) => ({ ...row, ord: 1 }));
    const answered = await runRaw<ClaimRow & { ord: number }>(on, claimOnNodeStatement(group, ttl));
    for (const row of answered) {
      row.consumer_group = group[row.ord - 1]!.consumerGroup;
      row.message_id = group[row.ord - 1]!.messageId;
    }
    return answered;
  });
  const byPosition = new Array<ClaimRow>(keys.length);
  for (const row of rows) byPosition[row.ord - 1] = row;
  return byPosition;
}
