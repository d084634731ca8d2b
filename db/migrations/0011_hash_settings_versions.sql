-- Dedup on chosen fields: a service hashes only its included paths (when it lists any), minus its
-- ignored ones. Every change of either is a new hash version, kept forever in service_hash_settings,
-- and every stored hash says which version made it: a hash is only ever compared with one made
-- under the same settings, so changing them never turns an unchanged payload into `changed`.
ALTER TABLE "services" ADD COLUMN IF NOT EXISTS "included_paths" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN IF NOT EXISTS "hash_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "service_hash_settings" (
  "service_id" text NOT NULL,
  "hash_version" integer NOT NULL,
  "ignored_paths" text[] NOT NULL,
  "included_paths" text[] NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "service_hash_settings_pkey" PRIMARY KEY ("service_id", "hash_version")
);--> statement-breakpoint
INSERT INTO "service_hash_settings" ("service_id", "hash_version", "ignored_paths", "included_paths")
SELECT "id", "hash_version", "ignored_paths", "included_paths" FROM "services"
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- A constant default: PostgreSQL 11+ adds the column without rewriting the table.
ALTER TABLE "last_seen" ADD COLUMN IF NOT EXISTS "hash_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "last_seen" ADD COLUMN IF NOT EXISTS "previous_hash_version" integer;--> statement-breakpoint
-- When the replaced hash was accepted, so a revert restores that too (a duplicate's "why" stays true).
ALTER TABLE "last_seen" ADD COLUMN IF NOT EXISTS "previous_last_changed" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reset_rows" ADD COLUMN IF NOT EXISTS "hash_version" integer;--> statement-breakpoint
-- The one-key check, now comparing hashes of one settings version only. A key stored under other
-- settings is answered `stale` with that version (nothing written); the caller hashes the payload
-- under those settings too and asks again with both hashes (p_old_hash, p_old_version). Equal
-- under the old settings is a duplicate, and the stored hash moves to the newer settings (one write
-- per key, once), so the key's next check is one statement again.
DROP FUNCTION IF EXISTS "weir_last_seen_decide_v2"(text, text, bytea, text, int);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "weir_last_seen_decide_v3"(
  p_service_id text, p_message_id text, p_hash bytea, p_hash_version int,
  p_payload text, p_history_depth int, p_old_hash bytea, p_old_version int
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
    IF p_old_version IS DISTINCT FROM v_hash_version THEN
      RETURN QUERY SELECT v_version, 'stale'::text, v_changed, v_hash_version;
      RETURN;
    END IF;
    IF v_hash = p_old_hash THEN
      -- Seeing the same payload committed is proof enough, as for any duplicate; the upgrade only
      -- happens if the key is still as read, and never to older settings (a node yet to see a change).
      UPDATE last_seen s SET hash = p_hash, hash_version = p_hash_version
      WHERE s.service_id = p_service_id AND s.message_id = p_message_id
        AND s.hash_version = p_old_version AND s.hash = p_old_hash AND p_hash_version > p_old_version;
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
       OR (s.hash_version = p_old_version AND s.hash IS DISTINCT FROM p_old_hash)
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
