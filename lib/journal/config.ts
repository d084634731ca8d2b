import { setting } from "@/lib/config";

export interface JournalConfig {
  /** False with WEIR_JOURNAL=off: no entry is kept by this node (every subject's level aside). */
  enabled: boolean;
  /** Entries held at most while they wait to be written (WEIR_JOURNAL_BUFFER). */
  bufferEntries: number;
  /** How often the buffer is written (WEIR_JOURNAL_FLUSH_MS). */
  flushMs: number;
  /**
   * Entries per append statement. pg serialises a statement's parameter arrays in one go on the
   * event loop: 3,000 entries took 14.5 ms, 500 took 2.2 ms. With one statement a second at
   * 3,000 checks/s every check in flight waited for that, and weir's p99 with it
   * (docs/performance.md, "Where the tail at a steady load comes from").
   */
  batchEntries: number;
  /** How long entries are kept (WEIR_JOURNAL_RETENTION, default 7d); whole days are dropped. */
  retentionMs: number;
}

export function journalConfigFromEnv(): JournalConfig {
  return {
    enabled: setting("WEIR_JOURNAL") === "on",
    bufferEntries: setting("WEIR_JOURNAL_BUFFER"),
    flushMs: setting("WEIR_JOURNAL_FLUSH_MS"),
    batchEntries: 500,
    retentionMs: setting("WEIR_JOURNAL_RETENTION"),
  };
}
