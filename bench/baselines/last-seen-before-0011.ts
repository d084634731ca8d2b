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

/** The one-key function of migration 0009, which 0011 replaced; created in the bench's own database. */
export const DECIDE_ONE_FUNCTION_BEFORE_0011 = `CREATE OR REPLACE FUNCTION "weir_last_seen_decide_v2"(
  p_service_id text, p_message_id text, p_hash bytea, p_payload text, p_history_depth int
) RETURNS TABLE (version bigint, decision text, last_changed timestamptz) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_version bigint;
  v_changed timestamptz;
BEGIN
  SELECT s.version, s.last_changed INTO v_version, v_changed FROM last_seen s
  WHERE s.service_id = p_service_id AND s.message_id = p_message_id AND s.hash = p_hash;
  IF FOUND THEN
    RETURN QUERY SELECT v_version, 'duplicate'::text, v_changed;
    RETURN;
  END IF;
  INSERT INTO last_seen AS s (service_id, message_id, hash, version, first_seen, last_changed)
  VALUES (p_service_id, p_message_id, p_hash, 1, now(), now())
  ON CONFLICT (service_id, message_id) DO UPDATE
    SET hash = excluded.hash, previous_hash = s.hash, version = s.version + 1, last_changed = excluded.last_changed
    WHERE s.hash IS DISTINCT FROM excluded.hash
  RETURNING s.version, s.last_changed INTO v_version, v_changed;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_history_depth > 0 AND p_payload IS NOT NULL THEN
    INSERT INTO payload_versions AS p (service_id, message_id, version, hash, payload, recorded_at)
    VALUES (p_service_id, p_message_id, v_version, p_hash, p_payload, v_changed)
    ON CONFLICT (service_id, message_id, version) DO UPDATE
      SET hash = excluded.hash, payload = excluded.payload, recorded_at = excluded.recorded_at;
    IF v_version > 1 THEN
      DELETE FROM payload_versions p
      WHERE p.service_id = p_service_id AND p.message_id = p_message_id
        AND p.version <= v_version - greatest(p_history_depth, 1);
    END IF;
  END IF;
  RETURN QUERY SELECT v_version, CASE WHEN v_version = 1 THEN 'new' ELSE 'changed' END, v_changed;
END
$$;`;

export const DECIDE_ONE_BEFORE_0011 =
  "select version, decision, last_changed from weir_last_seen_decide_v2($1, $2, decode($3, 'hex'), $4, $5)";
