/** Plain numbers only: the reset form (a client module) imports this file, so it reads no setting. */

/** Rows per reset or undo statement: each is its own short transaction. */
export const RESET_BATCH_SIZE = 5_000;
/** Above this many rows a reset must be confirmed by typing the service or group id. */
export const CONFIRM_THRESHOLD = 100;
export const SAMPLE_SIZE = 20;
export const MAX_LIST_IDS = 10_000;
/** Rows a preview's CSV download holds at most, as the audit export: past it, narrow the selection. */
export const RESET_CSV_MAX_ROWS = 100_000;
/** A runner that has not beaten for this long is presumed dead and may be taken over. */
export const STALE_RUNNER_SECONDS = 30;
