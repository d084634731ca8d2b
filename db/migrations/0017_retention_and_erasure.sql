ALTER TABLE "services" ADD COLUMN "payload_retention_seconds" integer;--> statement-breakpoint
ALTER TABLE "idempotency_scopes" ADD COLUMN "response_retention_seconds" integer;--> statement-breakpoint
CREATE INDEX "payload_versions_by_recorded_at" ON "payload_versions" USING btree ("service_id","recorded_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_by_completed_at" ON "idempotency_keys" USING btree ("scope","completed_at") WHERE "idempotency_keys"."completed_at" is not null;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_payload_retention_range" CHECK ("services"."payload_retention_seconds" is null or "services"."payload_retention_seconds" between 60 and 315360000);--> statement-breakpoint
ALTER TABLE "idempotency_scopes" ADD CONSTRAINT "idempotency_scopes_response_retention_range" CHECK ("idempotency_scopes"."response_retention_seconds" is null or "idempotency_scopes"."response_retention_seconds" between 60 and 31536000);--> statement-breakpoint
-- Written by hand: an erasure replaces a key named in audit entries by its hash. audit_log stays
-- append-only for weir's role: the trigger lets an UPDATE through only inside the two functions below
-- (SECURITY DEFINER, run as the table's owner), and only one that leaves who, when, what and how many as
-- they were. weir's role may call the functions, which can do nothing but put hashes in place of keys.
CREATE OR REPLACE FUNCTION "weir_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('weir.audit_redaction', true) = 'on'
     -- The owner of audit_log itself: Citus hides its placements (audit_log_NNN) from pg_class.
     AND pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = to_regclass('public.audit_log')), 'USAGE')
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.actor = OLD.actor AND NEW.actor_role = OLD.actor_role
     AND NEW.action = OLD.action AND NEW.target = OLD.target AND NEW.affected = OLD.affected THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
-- Opens the trigger's gate for the rest of the transaction, on every node: on Citus the update of the
-- reference table runs on each placement, so the setting travels as a propagated SET LOCAL.
CREATE OR REPLACE FUNCTION "weir_audit_redaction_gate_v1"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    EXECUTE 'SET LOCAL citus.propagate_set_commands = ''local''';
  END IF;
  EXECUTE 'SET LOCAL weir.audit_redaction = ''on''';
END
$$;--> statement-breakpoint
-- One key: wherever it appears in an entry about the subject (a JSON string in details, the reason), its hash.
CREATE OR REPLACE FUNCTION "weir_audit_redact_key_v1"(p_target text, p_key text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_hash text := 'sha256:' || encode(sha256(convert_to(p_key, 'UTF8')), 'hex');
  v_key_json text := to_jsonb(p_key)::text;
  v_hash_json text := to_jsonb(v_hash)::text;
  v_count integer := 0;
  r record;
BEGIN
  PERFORM weir_audit_redaction_gate_v1();
  FOR r IN SELECT id, details::text AS details, reason FROM audit_log
      WHERE target = p_target AND (strpos(details::text, v_key_json) > 0 OR strpos(reason, p_key) > 0) LOOP
    UPDATE audit_log SET details = replace(r.details, v_key_json, v_hash_json)::jsonb, reason = replace(r.reason, p_key, v_hash) WHERE id = r.id;
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "weir_key_hash_v1"(p_key text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_key LIKE 'sha256:%' THEN p_key ELSE 'sha256:' || encode(sha256(convert_to(p_key, 'UTF8')), 'hex') END
$$;--> statement-breakpoint
-- Every key of a subject: the key fields weir's own entries write (messageId, key, messageIds) become hashes.
CREATE OR REPLACE FUNCTION "weir_audit_redact_subject_v1"(p_target text) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_details jsonb;
  v_count integer := 0;
  r record;
BEGIN
  PERFORM weir_audit_redaction_gate_v1();
  FOR r IN SELECT id, details FROM audit_log
      WHERE target = p_target AND action NOT LIKE 'erase.%'
        AND (jsonb_typeof(details->'messageId') = 'string' OR jsonb_typeof(details->'key') = 'string' OR jsonb_typeof(details->'messageIds') = 'array') LOOP
    v_details := r.details;
    IF jsonb_typeof(v_details->'messageId') = 'string' THEN
      v_details := v_details || jsonb_build_object('messageId', weir_key_hash_v1(v_details->>'messageId'));
    END IF;
    IF jsonb_typeof(v_details->'key') = 'string' THEN
      v_details := v_details || jsonb_build_object('key', weir_key_hash_v1(v_details->>'key'));
    END IF;
    IF jsonb_typeof(v_details->'messageIds') = 'array' THEN
      v_details := v_details || jsonb_build_object('messageIds',
        (SELECT coalesce(jsonb_agg(weir_key_hash_v1(e)), '[]'::jsonb) FROM jsonb_array_elements_text(v_details->'messageIds') e));
    END IF;
    IF v_details IS DISTINCT FROM r.details THEN
      UPDATE audit_log SET details = v_details WHERE id = r.id;
      v_count := v_count + 1;
    END IF;
  END LOOP;
  RETURN v_count;
END
$$;
