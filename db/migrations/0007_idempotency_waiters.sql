-- Set by a caller that waits for an in-flight key (begin with waitSeconds): complete and release
-- send a NOTIFY only for such keys, so the plain path never takes the notification queue's lock.
ALTER TABLE "idempotency_keys" ADD COLUMN IF NOT EXISTS "waiters" boolean DEFAULT false NOT NULL;
