import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";

export interface Failures {
  failures: number;
  /** Seconds since the last failure, by the database clock. */
  secondsSince: number;
}

/**
 * Failed sign-ins share auth_rate_limits with the fixed-window counters, under
 * their own keys: `window_start` is the last failure, `hits` the failures since
 * the count last went quiet for `quietSeconds`. The update names no now(): on Citus
 * (auth_rate_limits is distributed) its SET may hold only immutable functions.
 */
export async function noteFailures(db: DbOrTx, keys: readonly string[], quietSeconds: number): Promise<void> {
  for (const key of keys) {
    await db.execute(sql`
      insert into auth_rate_limits as r (key, window_start, hits) values (${key}, now(), 1)
      on conflict (key) do update
        set hits = case when excluded.window_start - r.window_start > make_interval(secs => ${quietSeconds}) then 1 else r.hits + 1 end,
            window_start = excluded.window_start`);
  }
}

/** Failures per key that are still counting (last one within `quietSeconds`). */
export async function readFailures(db: DbOrTx, keys: readonly string[], quietSeconds: number): Promise<Map<string, Failures>> {
  const result = await db.execute<{ key: string; hits: number; age: number }>(sql`
    select key, hits, extract(epoch from now() - window_start)::float8 as age from auth_rate_limits
    where key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})
      and window_start >= now() - make_interval(secs => ${quietSeconds})`);
  return new Map(result.rows.map((row: { key: string; hits: number; age: number }) => [row.key, { failures: Number(row.hits), secondsSince: Number(row.age) }]));
}

export async function forgetFailures(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from auth_rate_limits where key = ${key}`);
}
