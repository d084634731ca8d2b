-- Sliding windows: a group with slide = true restarts a record's window at each duplicate, so a
-- message redelivered more often than the TTL stays a duplicate. Off by default: a duplicate in a
-- non-sliding group still writes nothing.
ALTER TABLE "consumer_groups" ADD COLUMN IF NOT EXISTS "slide" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The one-key claim of migration 0006, now answering when the matched window started (a duplicate
-- says why) and sliding the window for groups that ask for it. A new name: the return type changed,
-- and a node still preparing the old statement fails closed instead of answering without it.
DROP FUNCTION IF EXISTS "weir_window_claim"(text, text, int);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "weir_window_claim_v2"(p_consumer_group text, p_message_id text, p_default_ttl int)
RETURNS TABLE (ttl_seconds int, claimed boolean, late_by_seconds float8, window_started_at timestamptz) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_ttl int;
  v_slide boolean;
  v_at timestamptz := statement_timestamp();
  v_cutoff timestamptz;
  v_claimed timestamptz;
  v_previous timestamptz;
BEGIN
  SELECT g.ttl_seconds, g.slide INTO v_ttl, v_slide FROM consumer_groups g WHERE g.id = p_consumer_group;
  IF NOT FOUND THEN
    v_ttl := p_default_ttl;
    v_slide := false;
  END IF;
  v_cutoff := v_at - make_interval(secs => v_ttl);
  SELECT r.claimed_at INTO v_claimed FROM window_records r
  WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id AND r.claimed_at > v_cutoff;
  IF FOUND THEN
    IF v_slide THEN
      UPDATE window_records r SET claimed_at = v_at, claim_cutoff = v_cutoff
      WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id AND r.claimed_at > v_cutoff;
    END IF;
    RETURN QUERY SELECT v_ttl, false, NULL::float8, v_claimed;
    RETURN;
  END IF;
  INSERT INTO window_records AS r (consumer_group, message_id, claimed_at, claim_cutoff)
  VALUES (p_consumer_group, p_message_id, v_at, v_cutoff)
  ON CONFLICT (consumer_group, message_id) DO UPDATE
    SET claimed_at = excluded.claimed_at, claim_cutoff = excluded.claim_cutoff, previous_claimed_at = r.claimed_at
    WHERE r.claimed_at <= excluded.claim_cutoff
  RETURNING r.claimed_at, r.previous_claimed_at INTO v_claimed, v_previous;
  IF NOT FOUND THEN
    -- A concurrent claim committed first; this statement's fresh snapshot sees its window.
    SELECT r.claimed_at INTO v_claimed FROM window_records r
    WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id;
    RETURN QUERY SELECT v_ttl, false, NULL::float8, v_claimed;
    RETURN;
  END IF;
  RETURN QUERY SELECT v_ttl, true,
    round((extract(epoch FROM v_claimed - v_previous) - v_ttl)::numeric, 3)::float8, v_claimed;
END
$$;--> statement-breakpoint
-- Forgets a claim inside its window whose work failed, so a redelivery is claimed again. With a
-- claimed-at range (the claim's own window start, to the millisecond) only that claim is released,
-- never a later one another consumer made after the window expired. One key: routed on Citus.
CREATE OR REPLACE FUNCTION "weir_window_release"(
  p_consumer_group text, p_message_id text, p_default_ttl int, p_claimed_from timestamptz, p_claimed_to timestamptz
) RETURNS TABLE (state text, claimed_at timestamptz) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_ttl int;
  v_cutoff timestamptz;
  v_claimed timestamptz;
BEGIN
  v_ttl := coalesce((SELECT g.ttl_seconds FROM consumer_groups g WHERE g.id = p_consumer_group), p_default_ttl);
  v_cutoff := statement_timestamp() - make_interval(secs => v_ttl);
  DELETE FROM window_records r
  WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id AND r.claimed_at > v_cutoff
    AND (p_claimed_from IS NULL OR (r.claimed_at >= p_claimed_from AND r.claimed_at < p_claimed_to))
  RETURNING r.claimed_at INTO v_claimed;
  IF FOUND THEN
    RETURN QUERY SELECT 'released'::text, v_claimed;
    RETURN;
  END IF;
  SELECT r.claimed_at INTO v_claimed FROM window_records r
  WHERE r.consumer_group = p_consumer_group AND r.message_id = p_message_id;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'absent'::text, NULL::timestamptz;
  ELSIF v_claimed <= v_cutoff THEN
    RETURN QUERY SELECT 'expired'::text, v_claimed;
  ELSE
    RETURN QUERY SELECT 'claimed_again'::text, v_claimed;
  END IF;
END
$$;
