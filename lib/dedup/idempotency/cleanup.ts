import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";

/**
 * Deletes up to $1 keys past their expiry. A key taken over or completed
 * meanwhile has a new expiry, which the delete re-checks on the row it removes.
 */
const DELETE_EXPIRED_KEYS_SQL = `
with deleted as (
  delete from idempotency_keys k
  where k.ctid = any(array(
      select e.ctid from idempotency_keys e
      where e.expires_at < now()
      order by e.expires_at
      limit $1
      for update skip locked))
    and k.expires_at < now()
  returning 1
)
select count(*)::int as removed from deleted
`;

/** Removes one bounded batch of expired idempotency keys; returns how many. */
export async function deleteExpiredKeys(db: DbOrTx, limit: number): Promise<number> {
  const [row] = await runRaw<{ removed: number }>(db, {
    name: "weir_idempotency_delete_expired_v1",
    text: DELETE_EXPIRED_KEYS_SQL,
    values: [limit],
  });
  return Number(row?.removed ?? 0);
}

/** Seconds since the oldest expired key still present expired (0 when none). */
export async function idempotencyCleanupLag(db: DbOrTx): Promise<number> {
  const [row] = await runRaw<{ lag_seconds: number | null }>(db, {
    name: "weir_idempotency_cleanup_lag_v1",
    text: `select extract(epoch from now() - min(expires_at))::float8 as lag_seconds
           from idempotency_keys where expires_at < now()`,
    values: [],
  });
  return Math.max(0, Number(row?.lag_seconds ?? 0));
}
