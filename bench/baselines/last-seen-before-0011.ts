import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The check statements as they were before migration 0011 (hash settings versions), verbatim:
 * the baseline the cost benches compare the current statements against, in the same run.
 */

/** The batch decide statement without the history CTEs (services keeping hashes only). */
export const LEAN_DECIDE_BEFORE_0011 = `
with input as (
  select ord::int as ord, service_id, message_id, decode(hash_hex, 'hex') as hash, payload, history_depth
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) with ordinality
    as i(service_id, message_id, hash_hex, payload, history_depth, ord)
),
unchanged as (
  select i.ord, s.version, s.last_changed
  from input i join last_seen s on s.service_id = i.service_id and s.message_id = i.message_id
  where s.hash = i.hash
),
written as (
  insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
  select i.service_id, i.message_id, i.hash, 1, now(), now()
  from input i
  where not exists (select 1 from unchanged u where u.ord = i.ord)
  order by i.service_id, i.message_id
  on conflict (service_id, message_id) do update
    set hash = excluded.hash, previous_hash = s.hash, version = s.version + 1, last_changed = excluded.last_changed
    where s.hash is distinct from excluded.hash
  returning s.service_id, s.message_id, s.version, s.last_changed
)
select u.ord, u.version, 'duplicate' as decision, u.last_changed from unchanged u
union all
select i.ord, w.version, case when w.version = 1 then 'new' else 'changed' end, w.last_changed
from written w join input i on i.service_id = w.service_id and i.message_id = w.message_id
`;

/** The one-key function as migration 0009 created it (0011 dropped it); created in the bench's own database. */
export function decideOneFunctionBefore0011(): string {
  const migration = readFileSync(path.join(import.meta.dirname, "../../db/migrations/0009_last_seen_revert_and_why.sql"), "utf8");
  const statement = migration.split("--> statement-breakpoint").find((part) => part.includes('FUNCTION "weir_last_seen_decide_v2"'));
  if (!statement) throw new Error("migration 0009 no longer creates weir_last_seen_decide_v2");
  return statement;
}

export const DECIDE_ONE_BEFORE_0011 =
  "select version, decision, last_changed from weir_last_seen_decide_v2($1, $2, decode($3, 'hex'), $4, $5)";
