import { decideOnShardSql } from "@/lib/dedup/last-seen/statement";

/**
 * Locks one of last_seen's shards as Citus locks a shard for its own writes (lock_shard_metadata,
 * ShareLock), then says whether it is on this node. A move or split takes ExclusiveLock on every
 * node before it repoints the shard and holds it until it commits: once this lock is held, the
 * shard stays where the placement read after it (in a snapshot of its own) says. SECURITY DEFINER
 * because lock_shard_metadata wants the shard's owner; it locks last_seen's shards and nothing else.
 */
export const LOCK_LAST_SEEN_SHARD_FUNCTION = {
  signature: "weir_lock_last_seen_shard_v1(bigint)",
  create: `create function weir_lock_last_seen_shard_v1(p_shard bigint) returns boolean
language plpgsql security definer set search_path = public, pg_temp as $fn$
begin
  if not exists (select 1 from pg_dist_shard s where s.shardid = p_shard and s.logicalrelid = 'last_seen'::regclass) then
    return false;
  end if;
  perform lock_shard_metadata(5, array[p_shard]);
  return exists (
    select 1 from pg_dist_placement p where p.shardid = p_shard and p.groupid = (select groupid from pg_dist_local_group)
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
 * stays until the deferred drop): each shard is locked first (weir_lock_last_seen_shard_v1) and
 * written only if it is on this node. Otherwise (moved or split since the caller looked), and for
 * items that keep history (their payload goes to a co-located table), each item goes through
 * weir_last_seen_decide_v5, the one-key function, which Citus routes: what a single check runs.
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
  v_shard bigint;
  v_prepared text;
  i integer;
begin
  v_shards := array(
    select get_shard_id_for_distribution_column('last_seen', k) from unnest(p_message_ids) with ordinality as u(k, n) order by n
  );
  for v_shard in select distinct s from unnest(v_shards) as s order by 1 loop
    if weir_lock_last_seen_shard_v1(v_shard)
      and not exists (select 1 from unnest(v_shards, p_history_depths) as h(s, d) where h.s = v_shard and h.d > 0) then
      v_prepared := 'weir_last_seen_decide_shard_v1_' || v_shard;
      if not exists (select 1 from pg_prepared_statements ps where ps.name = v_prepared) then
        execute format('prepare %I(text[], text[], text[], integer[], text[], integer[], text[], bigint[], bigint) as %s',
          v_prepared, format($q$${decideOnShardSql()}$q$, 'last_seen_' || v_shard));
      end if;
      return query execute format('execute %I(%L, %L, %L, %L, %L, %L, %L, %L, %s)', v_prepared,
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
