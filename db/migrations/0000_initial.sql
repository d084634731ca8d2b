CREATE TABLE "services" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"ignored_paths" text[] DEFAULT '{}'::text[] NOT NULL,
	"history_depth" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_history_depth_range" CHECK ("services"."history_depth" between 0 and 100),
	CONSTRAINT "services_id_length" CHECK (char_length("services"."id") between 1 and 128)
);
--> statement-breakpoint
CREATE TABLE "last_seen" (
	"service_id" text NOT NULL,
	"message_id" text NOT NULL,
	"hash" "bytea" NOT NULL,
	"version" bigint NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "last_seen_pkey" PRIMARY KEY("service_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "payload_versions" (
	"service_id" text NOT NULL,
	"message_id" text NOT NULL,
	"version" bigint NOT NULL,
	"hash" "bytea" NOT NULL,
	"payload" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payload_versions_pkey" PRIMARY KEY("service_id","message_id","version")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"affected" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_minute" (
	"subject_kind" text NOT NULL,
	"subject" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"checks" bigint DEFAULT 0 NOT NULL,
	"new" bigint DEFAULT 0 NOT NULL,
	"changed" bigint DEFAULT 0 NOT NULL,
	"duplicates" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"late_redeliveries" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_minute_pkey" PRIMARY KEY("subject_kind","subject","bucket")
);
--> statement-breakpoint
CREATE INDEX "last_seen_by_last_changed" ON "last_seen" USING btree ("service_id","last_changed" DESC NULLS LAST,"message_id");--> statement-breakpoint
CREATE INDEX "audit_log_by_at" ON "audit_log" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_by_action" ON "audit_log" USING btree ("action","at" DESC NULLS LAST);