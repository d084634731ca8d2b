-- The one-key check of 0011, with two corrections to how a key moves to newer hash settings:
-- * A duplicate found under the key's older settings moves the key to the newer ones only when
--   the caller says that is exact (p_upgrade: the newer settings hash a part of what the older
--   ones did, so every payload equal under the older is equal under the newer). Otherwise the
--   key keeps the hash of the payload that was accepted, not of one that merely matched it.
-- * A change never moves a key back to older settings (a node that has yet to see a change).
-- v3 stays, for nodes not yet upgraded during a rolling restart.
CREATE OR REPLACE FUNCTION "weir_last_seen_decide_v4"(
  p_service_id text, p_message_id text, p_hash bytea, p_hash_version int,
  p_payload text, p_history_depth int, p_old_hash bytea, p_old_version int, p_upgrade boolean
) RETURNS TABLE (version bigint, decision text, last_changed timestamptz, stored_hash_version int) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_version bigint;
  v_changed timestamptz;
  v_hash bytea;
  v_hash_version int;
BEGIN
  SELECT s.version, s.last_changed, s.hash, s.hash_version INTO v_version, v_changed, v_hash, v_hash_version
  FROM last_seen s WHERE s.service_id = p_service_id AND s.message_id = p_message_id;
  IF FOUND AND v_hash_version <> p_hash_version THEN
    IF p_old_version IS DISTINCT FROM v_hash_version OR v_hash_version > p_hash_version THEN
      RETURN QUERY SELECT v_version, 'stale'::text, v_changed, v_hash_version;
      RETURN;
    END IF;
    IF v_hash = p_old_hash THEN
      IF p_upgrade THEN
        UPDATE last_seen s SET hash = p_hash, hash_version = p_hash_version
        WHERE s.service_id = p_service_id AND s.message_id = p_message_id
          AND s.hash_version = p_old_version AND s.hash = p_old_hash;
      END IF;
      RETURN QUERY SELECT v_version, 'duplicate'::text, v_changed, v_hash_version;
      RETURN;
    END IF;
  ELSIF FOUND AND v_hash = p_hash THEN
    RETURN QUERY SELECT v_version, 'duplicate'::text, v_changed, v_hash_version;
    RETURN;
  END IF;
  INSERT INTO last_seen AS s (service_id, message_id, hash, hash_version, version, first_seen, last_changed)
  VALUES (p_service_id, p_message_id, p_hash, p_hash_version, 1, now(), now())
  ON CONFLICT (service_id, message_id) DO UPDATE
    SET hash = excluded.hash, hash_version = excluded.hash_version, previous_hash = s.hash,
      previous_hash_version = s.hash_version, previous_last_changed = s.last_changed, version = s.version + 1,
      last_changed = excluded.last_changed
    WHERE (s.hash_version = excluded.hash_version AND s.hash IS DISTINCT FROM excluded.hash)
       OR (s.hash_version = p_old_version AND s.hash IS DISTINCT FROM p_old_hash AND s.hash_version < excluded.hash_version)
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
  RETURN QUERY SELECT v_version, CASE WHEN v_version = 1 THEN 'new' ELSE 'changed' END, v_changed, p_hash_version;
END
$$;
