/** What one reset or undo step did; both the one-statement and the Citus step return it. */
export interface StepResult {
  /** Rows the batch looked at; fewer than the batch size means the selection is exhausted. */
  scanned: number;
  /** Rows removed (reset) or put back (undo). */
  moved: number;
}
