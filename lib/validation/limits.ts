/**
 * 365 days: the longest TTL window or grace period of a consumer group, and the
 * longest retention of an idempotency scope. The schema's check constraints hold
 * the same bound in SQL. No imports: the typed client uses this file as well.
 */
export const MAX_WINDOW_SECONDS = 31_536_000;
