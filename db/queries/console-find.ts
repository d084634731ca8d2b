import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { findExactIdCitus } from "./console-citus";
import { queryRows } from "./console-rows";
import { distinctByProbes } from "./loose-index-scan";

export interface FoundKey {
  kind: "key" | "claim" | "idempotency";
  /** Service, consumer group or idempotency scope. */
  owner: string;
  id: string;
  version: number | null;
  at: Date;
}

/** At most this many owners are probed per kind, so a lookup stays a bounded number of primary-key probes. */
export const FIND_OWNER_LIMIT = 500;

/**
 * Every place an exact id is stored: last-seen keys of each service, claims of
 * each consumer group, idempotency keys of each scope. The id is not a leading
 * index column anywhere, so each owner gets one primary-key probe (owner, id).
 */
export async function findExactId(db: DbOrTx, id: string): Promise<FoundKey[]> {
  const rows = (await isCitus(db)) ? await findExactIdCitus(db, id, FIND_OWNER_LIMIT) : await queryRows<Record<string, unknown>>(db, sql`
    (select 'key' as kind, l.service_id as owner, l.message_id as id, l.version, l.last_changed as at
      from (select id from services order by id limit ${FIND_OWNER_LIMIT}) s
      join last_seen l on l.service_id = s.id and l.message_id = ${id})
    union all
    (select 'claim', w.consumer_group, w.message_id, null, w.claimed_at
      from (select value as g from ${distinctByProbes("window_records", "consumer_group")} d limit ${FIND_OWNER_LIMIT}) o
      join window_records w on w.consumer_group = o.g and w.message_id = ${id})
    union all
    (select 'idempotency', k.scope, k.key, k.attempt, k.created_at
      from (select value as s from ${distinctByProbes("idempotency_keys", "scope")} d limit ${FIND_OWNER_LIMIT}) o
      join idempotency_keys k on k.scope = o.s and k.key = ${id})
    order by 1, 2`);
  return rows.map((row) => ({
    kind: row.kind as FoundKey["kind"],
    owner: String(row.owner),
    id: String(row.id),
    version: row.version === null ? null : Number(row.version),
    at: new Date(row.at as string),
  }));
}
