import { countAudit, type AuditQuery } from "@/db/queries/console-audit";
import { countGroupRecords } from "@/db/queries/console-counts";
import type { DbOrTx } from "@/db/types";
import { cappedCount, LIST_COUNT_CAP, type CappedCount } from "./capped-count";

export { LIST_COUNT_CAP };

/** The records a consumer group stores (claims still kept, inside or past their window). */
export async function loadGroupRecordCount(db: DbOrTx, group: string): Promise<CappedCount> {
  return cappedCount(await countGroupRecords(db, group, LIST_COUNT_CAP));
}

/**
 * Audit entries matching the filters. Only filters that bound an index range are counted
 * (action, time); an actor or target filter could read the whole log to find few matches: null.
 */
export async function loadAuditCount(db: DbOrTx, q: Omit<AuditQuery, "beforeId">): Promise<CappedCount | null> {
  if (q.actor || q.targetPrefix) return null;
  return cappedCount(await countAudit(db, q, LIST_COUNT_CAP));
}
