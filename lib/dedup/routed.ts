import { groupByNode } from "@/db/citus";
import { routedDb, routerOf } from "@/db/shard-router";
import type { DbOrTx } from "@/db/types";
import { setting } from "@/lib/config";

/**
 * Routed calls of a batch in flight at once on Citus (WEIR_ROUTED_CONCURRENCY, default
 * half the pool): each holds a pool connection while its worker works, so a batch
 * overlaps its round trips (measured: 4 gave 413 checks/s, 16 gave 1,007 on
 * bench/scaling.ts). Inside a transaction they queue on its one connection.
 */
export const ROUTED_CONCURRENCY = setting("WEIR_ROUTED_CONCURRENCY") ?? Math.max(1, Math.floor(setting("WEIR_PG_POOL_MAX") / 2));

/** Maps items with at most `limit` calls running; results keep the order of the items. */
export async function forEachLimited<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Citus: items with distinct keys grouped by the worker holding the shard of their distribution
 * value in `table`, one call per worker, the workers' calls at once (at most ROUTED_CONCURRENCY).
 * A call runs on its worker and commits there; an array of every key would span all shards and
 * commit with two-phase commit. Per worker rather than per shard: a batch of 20 spreads over about
 * 15 of 32 shards but over every worker only once (docs/citus.md, "The shard count").
 *
 * A handle that routes (WEIR_CITUS_ROUTE_URLS, db/shard-router.ts) groups with its cached
 * placements and sends each group through its worker's own pool, so no hop and no lookup; items
 * of no known worker form one group on the round-robin pool (each worker forwards). Otherwise
 * groupByNode asks (the journal's and the stats' lookup, taken to the worker). One item goes
 * without asking where it is first. `call` gets a group and the handle to send it through, and
 * answers rows by position in its group (`ord`, 1-based); they come back by position in `items`.
 */
export async function callByNode<I, R extends { ord: number }>(
  db: DbOrTx,
  table: string,
  items: readonly I[],
  valueOf: (item: I) => string,
  call: (group: I[], db: DbOrTx) => Promise<R[]>,
): Promise<R[]> {
  if (items.length === 1) return call([items[0]!], routedDb(db, table, valueOf(items[0]!)));
  const positions = items.map((item, index) => ({ item, ord: index + 1 }));
  const router = routerOf(db);
  const groups = router
    ? router.groupByNode(table, positions, (p) => valueOf(p.item))
    : (await groupByNode(db, table, positions, (p) => valueOf(p.item))).map((group) => ({ items: group, db }));
  const answered = await forEachLimited(groups, ROUTED_CONCURRENCY, async (group) => {
    // In key order: a worker's call takes its rows' locks item by item, so two batches that share
    // keys must take them in the same order, or each waits for the other (a distributed deadlock,
    // seen with claims racing claims and cleanup); cleanup deletes in index order too.
    const inKeyOrder = [...group.items].sort((a, b) => compareKeys(valueOf(a.item), valueOf(b.item)));
    const rows = await call(
      inKeyOrder.map((p) => p.item),
      group.db,
    );
    for (const row of rows) row.ord = inKeyOrder[row.ord - 1]!.ord;
    return rows;
  });
  return answered.flat();
}
