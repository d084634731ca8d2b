import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

export interface HashMatch {
  kind: "key" | "idempotency";
  /** Service or idempotency scope. */
  owner: string;
  id: string;
  version: number | null;
  at: Date;
}

export interface HashScan {
  matches: HashMatch[];
  /** How many of each service's most recently changed keys were compared. */
  keysPerService: number;
  services: number;
  /** How many of the latest-expiring idempotency keys (the newest ones) were compared. */
  idempotencyKeys: number;
}

/**
 * The last-seen keys a lookup by hash reads, at most: neither last_seen.hash nor request_hash
 * is indexed (an index would cost every new or changed check one more index write; see
 * bench/lib/hash-index-cost.ts), so the lookup compares a bounded, newest-first slice. Each key
 * read is a random heap page at 10 M keys: 2,000 keep the page near 30 ms (bench/console-pages.ts).
 */
export const HASH_SCAN_BUDGET = 2_000;
/** Idempotency keys read newest-first through their expiry index (sequential, so more are cheap). */
export const REQUEST_HASH_SCAN = 5_000;
const MIN_PER_SERVICE = 5;
const MAX_SERVICES = 500;

const toMatch = (row: Record<string, unknown>): HashMatch => ({
  kind: row.kind as HashMatch["kind"],
  owner: String(row.owner),
  id: String(row.id),
  version: row.version === null ? null : Number(row.version),
  at: new Date(row.at as string),
});

/**
 * Keys whose stored hash is `hashHex` among each service's most recently changed keys
 * (through last_seen_by_last_changed), and idempotency keys whose request hash it is among
 * the newest ones (through idempotency_keys_by_expires_at). `hashHex` is 64 hex digits.
 */
export async function findByHash(db: DbOrTx, hashHex: string): Promise<HashScan> {
  const services = (await queryRows<{ id: string }>(db, sql`select id from services order by id limit ${MAX_SERVICES}`)).map((r) => r.id);
  const perService = Math.max(MIN_PER_SERVICE, Math.floor(HASH_SCAN_BUDGET / Math.max(1, services.length)));
  const hash = sql`decode(${hashHex}, 'hex')`;
  const keyRows = (await isCitus(db))
    ? // Citus plans no lateral join over a distributed table: one single-shard statement per service.
      (
        await Promise.all(
          services.map((id) =>
            queryRows<Record<string, unknown>>(db, sql`
              select 'key' as kind, service_id as owner, message_id as id, version, last_changed as at
              from (select * from last_seen where service_id = ${id} order by last_changed desc nulls last limit ${perService}) l where l.hash = ${hash}`),
          ),
        )
      ).flat()
    : await queryRows<Record<string, unknown>>(db, sql`
        select 'key' as kind, s.id as owner, l.message_id as id, l.version, l.last_changed as at
        from unnest(${sql.param(services)}::text[]) as s(id)
        cross join lateral (select message_id, version, last_changed, hash from last_seen where service_id = s.id
          order by last_changed desc nulls last limit ${perService}) l
        where l.hash = ${hash}
        order by s.id, l.message_id limit 100`);
  const idempotencyRows = await queryRows<Record<string, unknown>>(db, sql`
    select 'idempotency' as kind, scope as owner, key as id, attempt as version, created_at as at
    from (select scope, key, attempt, created_at, request_hash, locked_until from idempotency_keys order by expires_at desc limit ${REQUEST_HASH_SCAN}) k
    where k.request_hash = ${hash} and k.locked_until is distinct from k.created_at
    order by scope, key limit 100`);
  return {
    matches: [...keyRows.map(toMatch), ...idempotencyRows.map(toMatch)],
    keysPerService: perService,
    services: services.length,
    idempotencyKeys: REQUEST_HASH_SCAN,
  };
}
