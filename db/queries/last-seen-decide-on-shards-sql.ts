import { decideOnShardSql } from "./last-seen-decide-sql";

/**
 * Locks last_seen's shards as Citus locks a shard for its own writes (lock_shard_metadata,
 * ShareLock, in shard order), then answers those of them that are on this node. A move or split
 * takes ExclusiveLock on every node before it repoints a shard and holds it until it commits: once
 * this lock is held, a shard stays where the placements read after it (in a snapshot of their own)
 * say. SECURITY DEFINER because lock_shard_metadata wants the shards' owner; it locks last_seen's
 * shards and nothing else.
 */
export const LOCK_LAST_SEEN_SHARDS_FUNCTION = {
  signature: "weir_lock_last_seen_shards_v1(bigint[])",
  create: `create function weir_lock_last_seen_shards_v1(p_shards bigint[]) returns bigint[]
language plpgsql security definer set search_path = public, pg_temp as $fn$
declare
  v_shards bigint[] := array(
    select s.shardid from pg_dist_shard s where s.shardid = any(p_shards) and s.logicalrelid = 'last_seen'::regclass order by 1
  );
begin
  if cardinality(v_shards) = 0 then
    return v_shards;
  end if;
  perform lock_shard_metadata(5, v_shards);
  return array(
    select p.shardid from pg_dist_placement p
    where p.shardid = any(v_shards) and p.groupid = (select groupid from pg_dist_local_group)
  );
end
$fn$`,
};

/**
 * On Citus, the checks of one worker in one call, each of its shards in one statement: a function
 * distributed by its last argument (a key of the batch; every item's shard is on the worker holding
 * that key's), run on that worker, one local commit, no two-phase commit.
 *
 * Per shard, it runs the batch statement one PostgreSQL runs (decideOnShardSql) on the shard's own
 * table, prepared once per connection and shard (a SQL PREPARE, named for the shard; the arguments
 * go in as literals, as EXECUTE of a prepared statement takes no parameters). Through the
 * distributed table a worker plans every statement twice (once for Citus, once for the shard) and
 * one key at a time. Measured on a worker, keys per second: 20 keys of one shard, 6,800 through the
 * one-key function, 76,000-94,000 as the prepared statement alone; 10 keys of a worker's four
 * shards, 7,100-9,300 planned on each call, 20,900-24,800 prepared.
 *
 * A write on a shard's table must not land on a placement a move or split has just left (its table
 * stays until the deferred drop): the call's shards are locked first (weir_lock_last_seen_shards_v1)
 * and a shard's table is written only if it is on this node. Otherwise (moved or split since the
 * caller looked), and for items that keep history (their payload goes to a co-located table), each
 * item goes through weir_last_seen_decide_v5, the one-key function, which Citus routes: what a
 * single check runs.
 *
 * Shards are taken in shard order, and each shard's keys in key order (the statement inserts in key
 * order), so concurrent calls lock rows in one order. Rows by position in the arrays (`ord`), as the
 * batch statement's: "stale" when a key's hash was made under other settings, none for a lost race.
 * It runs as its caller, whose rights on last_seen Citus gave its shards too.
 */
export const LAST_SEEN_DECIDE_ON_SHARDS_FUNCTION = {
  signature: "weir_last_seen_decide_on_shards_v1(text[], text[], text[], integer[], text[], integer[], text[], text)",
  create: `create function weir_last_seen_decide_on_shards_v1(
  p_service_ids text[], p_message_ids text[], p_hashes text[], p_hash_versions integer[],
  p_payloads text[], p_history_depths integer[], p_refs text[], p_message_id text
) returns table (ord integer, version bigint, decision text, last_changed timestamptz, first_ref text)
language plpgsql as $fn$
#variable_conflict use_column
declare
  v_shards bigint[];
  v_here bigint[];
  v_history bigint[];
  v_prepared text[];
  v_shard bigint;
  v_name text;
  i integer;
begin
  v_shards := array(
    select get_shard_id_for_distribution_column('last_seen', k) from unnest(p_message_ids) with ordinality as u(k, n) order by n
  );
  v_here := weir_lock_last_seen_shards_v1(array(select distinct s from unnest(v_shards) as s));
  v_history := array(select h.s from unnest(v_shards, p_history_depths) as h(s, d) where h.d > 0);
  v_prepared := array(select ps.name from pg_prepared_statements ps where ps.name like 'weir\\_last\\_seen\\_decide\\_shard\\_v1\\_%');
  for v_shard in select distinct s from unnest(v_shards) as s order by 1 loop
    if v_shard = any(v_here) and not v_shard = any(v_history) then
      v_name := 'weir_last_seen_decide_shard_v1_' || v_shard;
      if not v_name = any(v_prepared) then
        execute format('prepare %I(text[], text[], text[], integer[], text[], integer[], text[], bigint[], bigint) as %s',
          v_name, format($q$${decideOnShardSql()}$q$, 'last_seen_' || v_shard));
      end if;
      return query execute format('execute %I(%L, %L, %L, %L, %L, %L, %L, %L, %s)', v_name,
        p_service_ids, p_message_ids, p_hashes, p_hash_versions, p_payloads, p_history_depths, p_refs, v_shards, v_shard);
    else
      for i in
        select u.n from unnest(p_service_ids, p_message_ids, v_shards) with ordinality as u(k1, k2, s, n)
        where u.s = v_shard order by u.k1, u.k2
      loop
        return query select i, d.version, d.decision, d.last_changed, d.first_ref
          from weir_last_seen_decide_v5(p_service_ids[i], p_message_ids[i], decode(p_hashes[i], 'hex'), p_hash_versions[i],
            p_payloads[i], p_history_depths[i], null, null, false, p_refs[i]) d;
      end loop;
    end if;
  end loop;
end
$fn$`,
};
