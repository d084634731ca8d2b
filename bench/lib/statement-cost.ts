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
        while (performance.now() < deadline) {
          // Not `decisions += await send()`: that reads the total before the await and drops what
          // the other connections added meanwhile.
          const made = await send(client);
          decisions += made;
        }
      } finally {
        client.release();
      }
    }),
  );
  return decisions / seconds;
}

/**
 * Every contender once per round, in a new random order each round; round 0 a warm-up (JIT,
 * prepared statements, caches) that is not counted. A row compares a "now" to a "before" by the
 * median of their ratios within each round: a table that grows, a vacuum or a neighbour's burst
 * moves both sides of a round alike, where the ratio of two medians would take it for a cost.
 */
export async function alternateRounds(contenders: Record<string, Send>, rounds: number, drive: (send: Send) => Promise<number>, beforeEach?: () => Promise<unknown>) {
  const names = Object.keys(contenders);
  const rates: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const name of shuffled(names)) {
      await beforeEach?.();
      const rate = await drive(contenders[name]!);
      if (round > 0) rates[name]!.push(rate);
    }
  }
  return (metric: string, now: string, before: string) => {
    const r = median(rates[now]!.map((rate, round) => ratio(rate, rates[before]![round]!)));
    return { metric, ours: median(rates[now]!), baseline: median(rates[before]!), ratio: r, target: ">= 0.97", met: r >= 0.97 };
  };
}

function shuffled<T>(values: readonly T[]): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
