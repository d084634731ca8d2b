/**
 * The loop of the statement-cost benches (bench/check-statement-cost.ts, bench/claim-why-cost.ts): a
 * statement's form now against its form before a migration, on one database, in alternating
 * rounds of fixed length, each driven by a few connections sending back to back.
 */
import type pg from "pg";
import { median, ratio } from "./report";

/** Sends one statement on a connection and says how many decisions it made. */
export type Send = (client: pg.PoolClient) => Promise<number>;

/** `size` items with distinct message ids, as the coalescer sends them in one statement. */
export function distinctBatch<T extends { messageId: string }>(size: number, next: () => T): T[] {
  const seen = new Map<string, T>();
  while (seen.size < size) {
    const item = next();
    seen.set(item.messageId, item);
  }
  return [...seen.values()];
}

/** Decisions per second of `send` on `workers` connections for `seconds`; `prepare` runs once per connection. */
export async function driveConnections(pool: pg.Pool, workers: number, seconds: number, send: Send, prepare?: string): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let decisions = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const client = await pool.connect();
      try {
        if (prepare) await client.query(prepare);
        while (performance.now() < deadline) decisions += await send(client);
      } finally {
        client.release();
      }
    }),
  );
  return decisions / seconds;
}

/**
 * Every contender once per round, round 0 a warm-up (JIT, prepared statements, caches) that is
 * not counted; the median rate of each, and a report row comparing a "now" to a "before" by name.
 */
export async function alternateRounds(contenders: Record<string, Send>, rounds: number, drive: (send: Send) => Promise<number>, beforeEach?: () => Promise<unknown>) {
  const rates: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, send] of Object.entries(contenders)) {
      await beforeEach?.();
      const rate = await drive(send);
      if (round > 0) rates[name]!.push(rate);
    }
  }
  const m = (name: string) => median(rates[name]!);
  return (metric: string, now: string, before: string) => {
    const r = ratio(m(now), m(before));
    return { metric, ours: m(now), baseline: m(before), ratio: r, target: ">= 0.97", met: r >= 0.97 };
  };
}
