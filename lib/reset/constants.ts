/** Rows per reset or undo statement: each is its own short transaction. */
export const RESET_BATCH_SIZE = 5_000;
/** Above this many rows a reset must be confirmed by typing the service or group id. */
export const CONFIRM_THRESHOLD = 100;
export const SAMPLE_SIZE = 20;
export const MAX_LIST_IDS = 10_000;
/** A runner that has not beaten for this long is presumed dead and may be taken over. */
export const STALE_RUNNER_SECONDS = 30;

const DEFAULT_RETENTION_DAYS = 7;

/** How long a reset can be undone: `WEIR_RESET_RETENTION_DAYS`, else 7 days. */
export function resetRetentionDays(): number {
  const raw = process.env.WEIR_RESET_RETENTION_DAYS;
  if (raw === undefined || raw === "") return DEFAULT_RETENTION_DAYS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0 || days > 365) {
    throw new Error(`WEIR_RESET_RETENTION_DAYS must be a number of days between 0 and 365, got "${raw}"`);
  }
  return days;
}
