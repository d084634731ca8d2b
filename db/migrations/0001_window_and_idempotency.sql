CREATE TABLE "consumer_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"ttl_seconds" integer NOT NULL,
	"grace_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consumer_groups_ttl_range" CHECK ("consumer_groups"."ttl_seconds" between 1 and 31536000),
	CONSTRAINT "consumer_groups_grace_range" CHECK ("consumer_groups"."grace_seconds" is null or "consumer_groups"."grace_seconds" between 0 and 31536000),
	CONSTRAINT "consumer_groups_id_length" CHECK (char_length("consumer_groups"."id") between 1 and 128)
);
--> statement-breakpoint
CREATE TABLE "window_records" (
	"consumer_group" text NOT NULL,
	"message_id" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"previous_claimed_at" timestamp with time zone,
	CONSTRAINT "window_records_pkey" PRIMARY KEY("consumer_group","message_id")
);
--> statement-breakpoint
CREATE TABLE "ttl_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"consumer_group" text NOT NULL,
	"old_ttl_seconds" integer NOT NULL,
	"new_ttl_seconds" integer NOT NULL,
	"old_grace_seconds" integer,
	"new_grace_seconds" integer,
	"created" boolean DEFAULT false NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"expired_at_once" integer DEFAULT 0 NOT NULL,
	"revived" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_scopes" (
	"id" text PRIMARY KEY NOT NULL,
	"lock_seconds" integer DEFAULT 90 NOT NULL,
	"retention_seconds" integer DEFAULT 86400 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_scopes_lock_range" CHECK ("idempotency_scopes"."lock_seconds" between 1 and 86400),
	CONSTRAINT "idempotency_scopes_retention_range" CHECK ("idempotency_scopes"."retention_seconds" between 1 and 31536000),
	CONSTRAINT "idempotency_scopes_id_length" CHECK (char_length("idempotency_scopes"."id") between 1 and 128)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" "bytea" NOT NULL,
	"status" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"locked_until" timestamp with time zone,
	"response_status" integer,
	"response_body" text,
	"response_headers" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("scope","key"),
	CONSTRAINT "idempotency_keys_status" CHECK ("idempotency_keys"."status" in ('in_progress', 'completed')),
	CONSTRAINT "idempotency_keys_in_progress_locked" CHECK ("idempotency_keys"."status" <> 'in_progress' or "idempotency_keys"."locked_until" is not null),
	CONSTRAINT "idempotency_keys_completed_response" CHECK ("idempotency_keys"."status" <> 'completed' or ("idempotency_keys"."response_status" is not null and "idempotency_keys"."response_body" is not null)),
	CONSTRAINT "idempotency_keys_key_length" CHECK (char_length("idempotency_keys"."key") between 1 and 255)
);
--> statement-breakpoint
CREATE INDEX "window_records_by_claimed_at" ON "window_records" USING btree ("consumer_group","claimed_at");--> statement-breakpoint
CREATE INDEX "ttl_changes_by_group" ON "ttl_changes" USING btree ("consumer_group","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idempotency_keys_by_expires_at" ON "idempotency_keys" USING btree ("expires_at");