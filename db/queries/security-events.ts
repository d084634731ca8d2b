import { sql } from "drizzle-orm";
import { securityEvents } from "../schema/auth-security-events";
import type { DbOrTx } from "../types";

export interface SecurityEvent {
  kind: string;
  address: string;
  account?: string | null;
  detail?: string | null;
}

export async function insertSecurityEvent(db: DbOrTx, event: SecurityEvent): Promise<void> {
  await db.insert(securityEvents).values({ kind: event.kind, address: event.address, account: event.account ?? null, detail: event.detail ?? null });
}

/**
 * One row per kind, address and window: the first refusal inserts it, later ones count. No now()
 * in the update: on Citus (a reference table) its SET may hold only immutable functions.
 */
export async function countSecurityEvent(db: DbOrTx, event: SecurityEvent, windowSeconds: number): Promise<void> {
  await db.execute(sql`
    insert into security_events as e (kind, address, account, detail, at, window_start)
    values (${event.kind}, ${event.address}, ${event.account ?? null}, ${event.detail ?? null}, now(),
            to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}))
    on conflict (kind, address, window_start) where window_start is not null
    do update set count = e.count + 1, at = excluded.at`);
}

/** Drops rows older than the retention, a bounded batch at a time so it never holds long locks. */
export async function pruneSecurityEvents(db: DbOrTx, olderThanSeconds: number): Promise<number> {
  const result = await db.execute(sql`
    delete from security_events where id in (
      select id from security_events where at < now() - make_interval(secs => ${olderThanSeconds}) limit 1000)
    returning id`);
  return result.rows.length;
}
