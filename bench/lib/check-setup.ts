import { createBenchDatabase, type BenchDatabase } from "./db";
import { mintToken } from "./token";
import { createPayloadFunctions, payloadText, registerService, seedLastSeen } from "./workload";
import { post } from "./load";

export const SERVICE = "bench";
/** A second service seeded with bench_hash_cheap: pgbench's run without the hash's cost (the statement's own limit). */
export const CHEAP_SERVICE = "bench-cheap";

/**
 * A bench database with `keys` existing keys for service "bench" (hashes only),
 * a service token for it, and autovacuum off on last_seen so that no contender
 * is hit by a vacuum the others were spared (vacuumBetween runs it instead).
 */
export async function prepareCheckDatabase(scenario: string, keys: number, options: { cheapBaseline?: boolean } = {}): Promise<{ db: BenchDatabase; token: string }> {
  const db = await createBenchDatabase(scenario);
  try {
    const started = performance.now();
    await createPayloadFunctions(db.pool);
    await registerService(db.pool, SERVICE, 0);
    await seedLastSeen(db.pool, SERVICE, keys);
    if (options.cheapBaseline) await seedLastSeen(db.pool, CHEAP_SERVICE, keys, undefined, "bench_hash_cheap");
    await db.pool.query("alter table last_seen set (autovacuum_enabled = off)");
    await db.pool.query("vacuum analyze last_seen");
    console.log(`  seeded ${keys.toLocaleString("en-US")} keys in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const token = await mintToken(db.store.db, { services: [SERVICE] });
    return { db, token };
  } catch (err) {
    await db.drop();
    throw err;
  }
}

/** Vacuum and checkpoint, so each contender starts from the same table and WAL state. */
export async function settle(db: BenchDatabase): Promise<void> {
  await db.pool.query("vacuum last_seen");
  await db.pool.query("checkpoint");
}

/** Refuses to measure a server that answers wrongly: a seeded payload is a duplicate, a new one a change. */
export async function assertDecisions(url: string, token: string | undefined, keys: number): Promise<void> {
  const dup = await post<{ decision?: string }>(`${url}/api/v1/check`, { serviceId: SERVICE, messageId: "m-1", payload: JSON.parse(payloadText(1, 0)) }, token);
  const k = keys - 1;
  const change = await post<{ decision?: string }>(
    `${url}/api/v1/check`,
    { serviceId: SERVICE, messageId: `m-${k}`, payload: JSON.parse(payloadText(k, Date.now())) },
    token,
  );
  if (dup.status !== 200 || dup.body.decision !== "duplicate") throw new Error(`${url}: expected a duplicate, got ${dup.status} ${JSON.stringify(dup.body)}`);
  if (change.status !== 200 || change.body.decision !== "changed") throw new Error(`${url}: expected a change, got ${change.status} ${JSON.stringify(change.body)}`);
}
