-- One idempotency begin for one key, the rule of the begin statement (lib/dedup/idempotency/statements.ts)
-- in two statements of one key, so Citus runs it beside the key's shard (distributed by key). A stored
-- key that is completed, held, or of another request is answered with nothing written; otherwise the
-- upsert takes it (inserts, replaces an expired key at attempt 1, takes over an expired lock of the
-- same request or a released key of any request as the next attempt). No row back means a concurrent
-- begin changed the key first; a 'retry' row means the stored key was takeable but the upsert lost.
CREATE OR REPLACE FUNCTION "weir_idempotency_begin"(
  p_scope text, p_key text, p_request_hash bytea, p_default_lock_seconds int, p_default_retention_seconds int
) RETURNS TABLE (
  verdict text, attempt int, locked_until timestamptz, stored_hash text, response_status int, response_body text,
  response_headers jsonb, created_at timestamptz, completed_at timestamptz, expires_at timestamptz
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
      c.response_headers, c.created_at, c.completed_at, c.expires_at;
    RETURN;
  END IF;
  SELECT s.lock_seconds, s.retention_seconds INTO v_lock, v_retention FROM idempotency_scopes s WHERE s.id = p_scope;
  v_lock := coalesce(v_lock, p_default_lock_seconds);
  v_retention := coalesce(v_retention, p_default_retention_seconds);
  INSERT INTO idempotency_keys AS k (scope, key, request_hash, status, attempt, locked_until, created_at, expires_at)
  VALUES (p_scope, p_key, p_request_hash, 'in_progress', 1, v_at + make_interval(secs => v_lock), v_at,
    v_at + make_interval(secs => v_lock + v_retention))
  ON CONFLICT (scope, key) DO UPDATE SET
    request_hash = excluded.request_hash, status = 'in_progress',
    attempt = CASE WHEN k.expires_at <= excluded.created_at THEN 1 ELSE k.attempt + 1 END,
    waiters = k.waiters AND k.expires_at > excluded.created_at,
    locked_until = excluded.locked_until, created_at = excluded.created_at, expires_at = excluded.expires_at,
    completed_at = NULL, response_status = NULL, response_body = NULL, response_headers = NULL
  WHERE k.expires_at <= excluded.created_at
     OR (k.status = 'in_progress' AND k.locked_until <= excluded.created_at
         AND (k.request_hash = excluded.request_hash OR k.locked_until IS NOT DISTINCT FROM k.created_at))
  RETURNING k.* INTO w;
  IF FOUND THEN
    RETURN QUERY SELECT 'started'::text, w.attempt, w.locked_until, encode(w.request_hash, 'hex'), w.response_status,
      w.response_body, w.response_headers, w.created_at, w.completed_at, w.expires_at;
  ELSIF v_found THEN
    RETURN QUERY SELECT 'retry'::text, c.attempt, c.locked_until, encode(c.request_hash, 'hex'), c.response_status,
      c.response_body, c.response_headers, c.created_at, c.completed_at, c.expires_at;
  END IF;
END
$$;
