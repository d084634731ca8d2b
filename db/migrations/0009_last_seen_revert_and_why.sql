-- The hash a change replaced, so the latest change of a key can be taken back (revert). Written
-- only by a change: a duplicate still writes nothing. Null for version 1 and after a revert.
ALTER TABLE "last_seen" ADD COLUMN IF NOT EXISTS "previous_hash" bytea;--> statement-breakpoint
-- The one-key check of migration 0006, now also answering when the stored version was accepted
-- (a duplicate says what it matched) and keeping the replaced hash. A new name: the return type
-- changed, and a node still preparing the old statement fails closed instead of skipping previous_hash.
DROP FUNCTION IF EXISTS "weir_last_seen_decide"(text, text, bytea, text, int);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "weir_last_seen_decide_v2"(
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
$$;
