-- A claim's expiry threshold, computed by the claim itself when it inserts (now minus the
-- group's TTL), so ON CONFLICT compares two columns: Citus refuses non-immutable expressions there.
ALTER TABLE "window_records" ADD COLUMN IF NOT EXISTS "claim_cutoff" timestamp with time zone;--> statement-breakpoint
-- One last-seen check for one key: a read, then an upsert only when the hash differs. Two
-- statements of one key each touch one shard on Citus (the function is distributed by message id
-- and runs beside the key's shard). No row back means a concurrent check committed the same hash.
CREATE OR REPLACE FUNCTION "weir_last_seen_decide"(
  p_service_id text, p_message_id text, p_hash bytea, p_payload text, p_history_depth int
) RETURNS TABLE (version bigint, decision text) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_version bigint;
  v_changed timestamptz;
BEGIN
  SELECT s.version INTO v_version FROM last_seen s
  WHERE s.service_id = p_service_id AND s.message_id = p_message_id AND s.hash = p_hash;
  IF FOUND THEN
    RETURN QUERY SELECT v_version, 'duplicate'::text;
    RETURN;
  END IF;
  INSERT INTO last_seen AS s (service_id, message_id, hash, version, first_seen, last_changed)
  VALUES (p_service_id, p_message_id, p_hash, 1, now(), now())
  ON CONFLICT (service_id, message_id) DO UPDATE
    SET hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
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
  RETURN QUERY SELECT v_version, CASE WHEN v_version = 1 THEN 'new' ELSE 'changed' END;
END
$$;--> statement-breakpoint
-- One window claim for one key, the same rule as the batch claim statement: a record inside
-- its window is a duplicate (nothing written); otherwise the upsert takes the key when absent
-- or expired. No row taken means a concurrent claim committed first: a duplicate.
CREATE OR REPLACE FUNCTION "weir_window_claim"(p_consumer_group text, p_message_id text, p_default_ttl int)
RETURNS TABLE (ttl_seconds int, claimed boolean, late_by_seconds float8) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_ttl int;
  v_at timestamptz := statement_timestamp();
  v_claimed timestamptz;
  v_previous timestamptz;
BEGIN
  v_ttl := coalesce((SELECT g.ttl_seconds FROM consumer_groups g WHERE g.id = p_consumer_group), p_default_ttl);
  PERFORM 1 FROM window_records r
  WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id
    AND r.claimed_at > v_at - make_interval(secs => v_ttl);
  IF FOUND THEN
    RETURN QUERY SELECT v_ttl, false, NULL::float8;
    RETURN;
  END IF;
  INSERT INTO window_records AS r (consumer_group, message_id, claimed_at, claim_cutoff)
  VALUES (p_consumer_group, p_message_id, v_at, v_at - make_interval(secs => v_ttl))
  ON CONFLICT (consumer_group, message_id) DO UPDATE
    SET claimed_at = excluded.claimed_at, claim_cutoff = excluded.claim_cutoff, previous_claimed_at = r.claimed_at
    WHERE r.claimed_at <= excluded.claim_cutoff
  RETURNING r.claimed_at, r.previous_claimed_at INTO v_claimed, v_previous;
  IF NOT FOUND THEN
    RETURN QUERY SELECT v_ttl, false, NULL::float8;
    RETURN;
  END IF;
  RETURN QUERY SELECT v_ttl, true,
    round((extract(epoch FROM v_claimed - v_previous) - v_ttl)::numeric, 3)::float8;
END
$$;
