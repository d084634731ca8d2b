import { sql } from "drizzle-orm";
import { isCitus } from "../citus";
import type { DbOrTx } from "../types";
import { findExactIdCitus } from "./console-citus";
import { queryRows } from "./console-rows";

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
    with recursive grp as (
      (select consumer_group as g from window_records order by consumer_group limit 1)
      union all
      select (select r.consumer_group from window_records r where r.consumer_group > grp.g order by r.consumer_group limit 1)
      from grp where grp.g is not null
    ), scp as (
      (select scope as s from idempotency_keys order by scope limit 1)
      union all
      select (select k.scope from idempotency_keys k where k.scope > scp.s order by k.scope limit 1)
      from scp where scp.s is not null
    )
    (select 'key' as kind, l.service_id as owner, l.message_id as id, l.version, l.last_changed as at
      from (select id from services order by id limit ${FIND_OWNER_LIMIT}) s
      join last_seen l on l.service_id = s.id and l.message_id = ${id})
    union all
    (select 'claim', w.consumer_group, w.message_id, null, w.claimed_at
      from (select g from grp where g is not null limit ${FIND_OWNER_LIMIT}) o
      join window_records w on w.consumer_group = o.g and w.message_id = ${id})
    union all
    (select 'idempotency', k.scope, k.key, k.attempt, k.created_at
      from (select s from scp where s is not null limit ${FIND_OWNER_LIMIT}) o
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
