import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/types";

/** Simulates the passing of time for one key: its lock and expiry move `seconds` into the past. */
export async function ageKey(db: DbOrTx, scope: string, key: string, seconds: number): Promise<void> {
  const by = `${seconds} seconds`;
  // Through UTC timestamps: Citus refuses timestamptz - interval (stable) on a column in an UPDATE.
  await db.execute(sql`update idempotency_keys set
    locked_until = ((locked_until at time zone 'UTC') - ${by}::interval) at time zone 'UTC',
    expires_at = ((expires_at at time zone 'UTC') - ${by}::interval) at time zone 'UTC'
    where scope = ${scope} and key = ${key}`);
}
