import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { callByNode } from "../routed";
import { decideOneStatement, decideOnShardsStatement, type DecideRow, type StatementItem } from "./statement";

/**
 * Citus: checks with distinct keys, one call per worker holding their keys (callByNode). A call
 * runs on its worker, one statement per shard; a worker with one item (and a single check) calls
 * the one-key function directly. Rows as the batch statement's: by position in
 * `items` (`ord`, 1-based); none for a lost race.
 */
export function decideByNode(db: DbOrTx, items: readonly StatementItem[]): Promise<DecideRow[]> {
  return callByNode(db, "last_seen", items, (item) => item.messageId, async (group, on) => {
    if (group.length > 1) return runRaw<DecideRow>(on, decideOnShardsStatement(group));
    const rows = await runRaw<Omit<DecideRow, "ord">>(on, decideOneStatement(group[0]!));
    return rows.map((row) => ({ ...row, ord: 1 }));
  });
}
