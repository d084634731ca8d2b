import { rollUp, ROLLUPS } from "@/db/queries/console-stats";
import type { BenchDatabase } from "./db";

/** Runs weir's own rollups (days, hours, quarters) until each has caught up with the seeded per-minute stats (at most `steps` calls each). */
export async function rollUpAllHours(db: BenchDatabase, steps: number): Promise<void> {
  for (const rollup of ROLLUPS) {
    let before: number | undefined;
    for (let i = 0; i < steps; i++) {
      const until = (await rollUp(db.store.db, rollup, 48))?.getTime();
      if (until === before) break;
      before = until;
    }
  }
}

/**
 * Last-seen keys `order-0`… for services `svc-<first>`…`svc-<last>`: 90 % at version 1, 10 % at
 * 2-8, 0.1 % at 20-49, their last change spread over 30 days. Load with the indexes dropped.
 */
export async function insertSpreadKeys(db: BenchDatabase, first: number, last: number, perService: number): Promise<void> {
  await db.pool.query(
    `insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
     select 'svc-' || lpad(s::text, 3, '0'), 'order-' || k, sha256(int8send(s::bigint * 100000000 + k)),
       case when k % 1000 = 7 then 20 + k % 30 when k % 10 = 3 then 2 + k % 7 else 1 end,
       t - make_interval(secs => (k % 86400)), t
     from generate_series($1::int, $2::int) s, generate_series(0, $3::int - 1) k,
       lateral (select now() - make_interval(secs => ((k::bigint * 7919 + s * 104729) % (30 * 86400))::int) as t) x`,
    [first, last, perService],
  );
}
