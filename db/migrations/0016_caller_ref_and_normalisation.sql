-- Normalisation per service (numbers by value, null as absent, empty containers removed), part of
-- the hash settings and so versioned with them: existing services and versions keep none.
ALTER TABLE "services" ADD COLUMN "normalise" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "last_seen" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "last_seen" ADD COLUMN "previous_ref" text;--> statement-breakpoint
ALTER TABLE "window_records" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "reset_rows" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "service_hash_settings" ADD COLUMN "normalise" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- The caller's ref (a job id, request id, note of at most 256 bytes) travels with the answer it was
-- given with into the journal.
ALTER TABLE "journal" ADD COLUMN IF NOT EXISTS "ref" text;--> statement-breakpoint
-- The one-key check of 0013, now storing the caller's ref with the version it accepts (the ref of
-- the replaced version is kept for a revert) and answering every duplicate with the stored ref.
-- A duplicate still writes nothing. v4 stays, for nodes not yet upgraded during a rolling restart.
CREATE OR REPLACE FUNCTION "weir_last_seen_decide_v5"(
  p_service_id text, p_message_id text, p_hash bytea, p_hash_version int,
  p_payload text, p_history_depth int, p_old_hash bytea, p_old_version int, p_upgrade boolean, p_ref text
) RETURNS TABLE (version bigint, decision text, last_changed timestamptz, stored_hash_version int, first_ref text) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_version bigint;
  v_changed timestamptz;
  v_hash bytea;
  v_hash_version int;
  v_ref text;
BEGIN
  SELECT s.version, s.last_changed, s.hash, s.hash_version, s.ref INTO v_version, v_changed, v_hash, v_hash_version, v_ref
  FROM last_seen s WHERE s.service_id = p_service_id AND s.message_id = p_message_id;
  IF FOUND AND v_hash_version <> p_hash_version THEN
    IF p_old_version IS DISTINCT FROM v_hash_version OR v_hash_version > p_hash_version THEN
      RETURN QUERY SELECT v_version, 'stale'::text, v_changed, v_hash_version, v_ref;
      RETURN;
    END IF;
    IF v_hash = p_old_hash THEN
      IF p_upgrade THEN
        UPDATE last_seen s SET hash = p_hash, hash_version = p_hash_version
        WHERE s.service_id = p_service_id AND s.message_id = p_message_id
          AND s.hash_version = p_old_version AND s.hash = p_old_hash;
      END IF;
      RETURN QUERY SELECT v_version, 'duplicate'::text, v_changed, v_hash_version, v_ref;
      RETURN;
    END IF;
  ELSIF FOUND AND v_hash = p_hash THEN
    RETURN QUERY SELECT v_version, 'duplicate'::text, v_changed, v_hash_version, v_ref;
    RETURN;
  END IF;
  INSERT INTO last_seen AS s (service_id, message_id, hash, hash_version, version, first_seen, last_changed, ref)
  VALUES (p_service_id, p_message_id, p_hash, p_hash_version, 1, now(), now(), p_ref)
  ON CONFLICT (service_id, message_id) DO UPDATE
    SET hash = excluded.hash, hash_version = excluded.hash_version, previous_hash = s.hash,
      previous_hash_version = s.hash_version, previous_last_changed = s.last_changed, version = s.version + 1,
      last_changed = excluded.last_changed, previous_ref = s.ref, ref = excluded.ref
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
  RETURN QUERY SELECT v_version, CASE WHEN v_version = 1 THEN 'new' ELSE 'changed' END, v_changed, p_hash_version, p_ref;
END
$$;--> statement-breakpoint
-- The one-key claim of 0010, now storing the caller's ref with the claim that opens a window and
-- answering a duplicate with it. A slide keeps the ref of the claim that opened the window.
CREATE OR REPLACE FUNCTION "weir_window_claim_v3"(p_consumer_group text, p_message_id text, p_default_ttl int, p_ref text)
RETURNS TABLE (ttl_seconds int, claimed boolean, late_by_seconds float8, window_started_at timestamptz, first_ref text) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_ttl int;
  v_slide boolean;
  v_at timestamptz := statement_timestamp();
  v_cutoff timestamptz;
  v_claimed timestamptz;
  v_previous timestamptz;
  v_ref text;
BEGIN
  SELECT g.ttl_seconds, g.slide INTO v_ttl, v_slide FROM consumer_groups g WHERE g.id = p_consumer_group;
  IF NOT FOUND THEN
    v_ttl := p_default_ttl;
    v_slide := false;
  END IF;
  v_cutoff := v_at - make_interval(secs => v_ttl);
  SELECT r.claimed_at, r.ref INTO v_claimed, v_ref FROM window_records r
  WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id AND r.claimed_at > v_cutoff;
  IF FOUND THEN
    IF v_slide THEN
      UPDATE window_records r SET claimed_at = v_at, claim_cutoff = v_cutoff
      WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id AND r.claimed_at > v_cutoff;
    END IF;
    RETURN QUERY SELECT v_ttl, false, NULL::float8, v_claimed, v_ref;
    RETURN;
  END IF;
  INSERT INTO window_records AS r (consumer_group, message_id, claimed_at, claim_cutoff, ref)
  VALUES (p_consumer_group, p_message_id, v_at, v_cutoff, p_ref)
  ON CONFLICT (consumer_group, message_id) DO UPDATE
    SET claimed_at = excluded.claimed_at, claim_cutoff = excluded.claim_cutoff, previous_claimed_at = r.claimed_at,
      ref = excluded.ref
    WHERE r.claimed_at <= excluded.claim_cutoff
  RETURNING r.claimed_at, r.previous_claimed_at INTO v_claimed, v_previous;
  IF NOT FOUND THEN
    -- A concurrent claim committed first; this statement's fresh snapshot sees its window.
    SELECT r.claimed_at, r.ref INTO v_claimed, v_ref FROM window_records r
    WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id;
    RETURN QUERY SELECT v_ttl, false, NULL::float8, v_claimed, v_ref;
    RETURN;
  END IF;
  RETURN QUERY SELECT v_ttl, true,
    round((extract(epoch FROM v_claimed - v_previous) - v_ttl)::numeric, 3)::float8, v_claimed, p_ref;
END
$$;--> statement-breakpoint
-- The one-key begin of 0008, now storing the caller's ref with each begin that takes the key and
-- answering every other begin with the ref of the one that holds (or completed) it.
CREATE OR REPLACE FUNCTION "weir_idempotency_begin_v2"(
  p_scope text, p_key text, p_request_hash bytea, p_default_lock_seconds int, p_default_retention_seconds int, p_ref text
) RETURNS TABLE (
  verdict text, attempt int, locked_until timestamptz, stored_hash text, response_status int, response_body text,
  response_headers jsonb, created_at timestamptz, completed_at timestamptz, expires_at timestamptz, first_ref text
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_at timestamptz := statement_timestamp();
  v_lock int;
  v_retention int;
  v_found boolean;
  c idempotency_keys%ROWTYPE;
  w idempotency_keys%ROWTYPE;
BEGIN
  SELECT * INTO c FROM idempotency_keys k WHERE k.scope = p_scope AND k.key = p_key AND k.expires_at > v_at;
  v_found := FOUND;
  -- A released key (locked_until = created_at) is takeable by any request.
  IF v_found AND c.locked_until IS DISTINCT FROM c.created_at
     AND (c.status = 'completed' OR c.request_hash <> p_request_hash OR c.locked_until > v_at) THEN
    RETURN QUERY SELECT
      CASE WHEN c.request_hash <> p_request_hash THEN 'mismatch'
           WHEN c.status = 'completed' THEN 'completed'
           ELSE 'in_progress' END,
      c.attempt, c.locked_until, encode(c.request_hash, 'hex'), c.response_status, c.response_body,
      c.response_headers, c.created_at, c.completed_at, c.expires_at, c.ref;
    RETURN;
  END IF;
  SELECT s.lock_seconds, s.retention_seconds INTO v_lock, v_retention FROM idempotency_scopes s WHERE s.id = p_scope;
  v_lock := coalesce(v_lock, p_default_lock_seconds);
  v_retention := coalesce(v_retention, p_default_retention_seconds);
  INSERT INTO idempotency_keys AS k (scope, key, request_hash, status, attempt, locked_until, created_at, expires_at, ref)
  VALUES (p_scope, p_key, p_request_hash, 'in_progress', 1, v_at + make_interval(secs => v_lock), v_at,
    v_at + make_interval(secs => v_lock + v_retention), p_ref)
  ON CONFLICT (scope, key) DO UPDATE SET
    request_hash = excluded.request_hash, status = 'in_progress',
    attempt = CASE WHEN k.expires_at <= excluded.created_at THEN 1 ELSE k.attempt + 1 END,
    waiters = k.waiters AND k.expires_at > excluded.created_at,
    locked_until = excluded.locked_until, created_at = excluded.created_at, expires_at = excluded.expires_at,
    completed_at = NULL, response_status = NULL, response_body = NULL, response_headers = NULL, ref = excluded.ref
  WHERE k.expires_at <= excluded.created_at
     OR (k.status = 'in_progress' AND k.locked_until <= excluded.created_at
         AND (k.request_hash = excluded.request_hash OR k.locked_until IS NOT DISTINCT FROM k.created_at))
  RETURNING k.* INTO w;
  IF FOUND THEN
    RETURN QUERY SELECT 'started'::text, w.attempt, w.locked_until, encode(w.request_hash, 'hex'), w.response_status,
      w.response_body, w.response_headers, w.created_at, w.completed_at, w.expires_at, w.ref;
  ELSIF v_found THEN
    RETURN QUERY SELECT 'retry'::text, c.attempt, c.locked_until, encode(c.request_hash, 'hex'), c.response_status,
      c.response_body, c.response_headers, c.created_at, c.completed_at, c.expires_at, c.ref;
  END IF;
END
$$;
