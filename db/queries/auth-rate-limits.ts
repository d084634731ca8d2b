import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";

export interface WindowHit {
  hits: number;
  /** Seconds until the current window ends. */
  resetInSeconds: number;
}

/**
 * Counts one hit against `key` in the current fixed window, atomically: one
 * upsert that starts a new window when the stored one is over. The window is
 * computed from the database clock, so nodes with skewed clocks agree.
 */
export async function hitWindow(db: DbOrTx, key: string, windowSeconds: number): Promise<WindowHit> {
  const result = await db.execute<{ hits: number; window_start: string | Date }>(sql`
    insert into auth_rate_limits as r (key, window_start, hits)
    values (${key}, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}::int) * ${windowSeconds}::int), 1)
    on conflict (key) do update
      set hits = case when r.window_start = excluded.window_start then r.hits + 1 else 1 end,
          window_start = excluded.window_start
    returning r.hits, r.window_start`);
  const row = result.rows[0]!;
  // Citus allows no now() in RETURNING: the window's end comes from the database, the rest from this clock.
  const endsAt = new Date(row.window_start).getTime() + windowSeconds * 1000;
  return { hits: Number(row.hits), resetInSeconds: Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)) };
}

/** Drops counters whose window ended long ago; bounded so it never holds long locks. */
export async function pruneWindows(db: DbOrTx, olderThanSeconds: number): Promise<number> {
  const result = await db.execute(sql`
    delete from auth_rate_limits where key in (
      select key from auth_rate_limits
      where window_start < now() - make_interval(secs => ${olderThanSeconds})
      limit 1000)
    returning key`);
  return result.rows.length;
}
