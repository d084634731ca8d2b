import { auditLog } from "../schema";
import type { DbOrTx } from "../types";

export interface AuditEntry {
  actor: string;
  actorRole: string;
  action: string;
  target: string;
  affected?: number;
  reason?: string | null;
  details?: Record<string, unknown>;
  /** See audit_log.shard_key: a value of the shard of the one key the change wrote (auditShardKey). */
  shardKey?: string;
}

/** Written in the same transaction as the change it records; answers the row's id. */
export async function insertAudit(db: DbOrTx, entry: AuditEntry): Promise<number> {
  const [row] = await db
    .insert(auditLog)
    .values({
    actor: entry.actor,
    actorRole: entry.actorRole,
    action: entry.action,
    target: entry.target,
    affected: entry.affected ?? 0,
    reason: entry.reason ?? null,
    details: entry.details ?? {},
    shardKey: entry.shardKey ?? "",
    })
    .returning({ id: auditLog.id });
  return row!.id;
}

/** The audit row of a change made by `by`: the row names its id and role. */
export function auditBy(db: DbOrTx, by: { id: string; role: string }, entry: Omit<AuditEntry, "actor" | "actorRole">): Promise<number> {
  return insertAudit(db, { actor: by.id, actorRole: by.role, ...entry });
}
