ALTER TABLE "api_tokens" ADD COLUMN "max_in_flight" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "requests_per_second" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_limits" CHECK ("api_tokens"."max_in_flight" > 0 and "api_tokens"."requests_per_second" > 0);