import type pg from "pg";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { seededRandom } from "@/lib/seeded-random";

/**
 * The bench's projection payload (~230 bytes), written in canonical form (fields
 * sorted, no spaces) so that PostgreSQL can compute the very hash weir computes:
 * sha256 of this text. That lets the seed and pgbench use the same hashes.
 */
export function payloadText(k: number, v: number): string {
  return `{"amount":${1000 + (k % 9000)},"currency":"EUR","customer":{"id":"c-${k % 50000}","tier":"gold"},"id":"m-${k}","lines":[{"qty":${1 + (k % 5)},"sku":"SKU-${k % 1000}"},{"qty":1,"sku":"SKU-FEE"}],"status":"paid","v":${v}}`;
}

const PAYLOAD_SQL = `format('{"amount":%s,"currency":"EUR","customer":{"id":"c-%s","tier":"gold"},"id":"m-%s","lines":[{"qty":%s,"sku":"SKU-%s"},{"qty":1,"sku":"SKU-FEE"}],"status":"paid","v":%s}',
  1000 + k % 9000, k % 50000, k, 1 + k % 5, k % 1000, v)`;

/** Creates bench_payload(k, v) and bench_hash(k, v) in the bench database (same text and hash as above). */
export async function createPayloadFunctions(pool: pg.Pool): Promise<void> {
  await pool.query(`create or replace function bench_payload(k bigint, v bigint) returns text language sql immutable parallel safe
    as $$ select ${PAYLOAD_SQL} $$`);
  await pool.query(`create or replace function bench_hash(k bigint, v bigint) returns bytea language sql immutable parallel safe
    as $$ select sha256(convert_to(${PAYLOAD_SQL}, 'UTF8')) $$`);
  // The statement's own limit: a 32-byte value made from (k, v) at no cost, as if the caller sent the hash.
  await pool.query(`create or replace function bench_hash_cheap(k bigint, v bigint) returns bytea language sql immutable parallel safe
    as $$ select int8send(k) || int8send(v) || int8send(k) || int8send(v) $$`);
  const { rows } = await pool.query<{ h: string }>("select encode(bench_hash(123457, 0), 'hex') as h");
  const expected = structuralHash(payloadText(123457, 0)).hash;
  if (rows[0]!.h !== expected) throw new Error(`bench payload hash differs between SQL (${rows[0]!.h}) and weir (${expected})`);
}

export async function registerService(pool: pg.Pool, id: string, historyDepth = 0, ignoredPaths: string[] = []): Promise<void> {
  await pool.query(
    `insert into services (id, display_name, ignored_paths, history_depth) values ($1, $1, $2, $3)
     on conflict (id) do update set ignored_paths = excluded.ignored_paths, history_depth = excluded.history_depth`,
    [id, ignoredPaths, historyDepth],
  );
}

/** Seeds `count` keys m-0..m-(count-1) for a service, each at version 1 with the hash of payloadText(k, 0) (or hashFn's (k, 0)). */
export async function seedLastSeen(pool: pg.Pool, serviceId: string, count: number, chunk = 500_000, hashFn: "bench_hash" | "bench_hash_cheap" = "bench_hash"): Promise<void> {
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk) - 1;
    await pool.query(
      `insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
       select $1, 'm-' || k, ${hashFn}(k, 0), 1, now() - interval '1 day', now() - interval '1 day'
       from generate_series($2::bigint, $3::bigint) k`,
      [serviceId, from, to],
    );
  }
}


/**
 * The 50 % duplicate mix used by every contender: duplicates go to the lower
 * half of the keys with the seeded payload (their state never changes), changes
 * go to the upper half with a fresh value (always a real change). The mix stays
 * exactly 50/50 however long the run is.
 */
export class CheckMix {
  private readonly half: number;
  private readonly random: () => number;
  private counter = 0;

  constructor(
    readonly keys: number,
    seed = 7,
    readonly duplicateShare = 0.5,
  ) {
    this.half = Math.floor(keys / 2);
    this.random = seededRandom(seed);
  }

  /** [k, v]: v = 0 is the seeded payload (a duplicate), any other v a change. */
  next(): [number, number] {
    if (this.random() < this.duplicateShare) return [Math.floor(this.random() * this.half), 0];
    return [this.half + Math.floor(this.random() * (this.keys - this.half)), 1 + (++this.counter % 1_000_000_000) + Math.floor(this.random() * 1e6) * 1e9];
  }

  checkBody(serviceId: string): string {
    const [k, v] = this.next();
    return `{"serviceId":"${serviceId}","messageId":"m-${k}","payload":${payloadText(k, v)}}`;
  }

  /** A batch body with `size` distinct keys. */
  batchBody(serviceId: string, size: number): string {
    const seen = new Set<number>();
    const items: string[] = [];
    while (items.length < size) {
      const [k, v] = this.next();
      if (seen.has(k)) continue;
      seen.add(k);
      items.push(`{"serviceId":"${serviceId}","messageId":"m-${k}","payload":${payloadText(k, v)}}`);
    }
    return `{"items":[${items.join(",")}]}`;
  }
}
