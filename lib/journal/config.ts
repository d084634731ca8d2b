import { setting } from "@/lib/config";

export interface JournalConfig {
  /** False with WEIR_JOURNAL=off: no entry is kept by this node (every subject's level aside). */
  enabled: boolean;
  /** Entries held at most while they wait to be written (WEIR_JOURNAL_BUFFER). */
  bufferEntries: number;
  /** How often the buffer is written (WEIR_JOURNAL_FLUSH_MS). */
  flushMs: number;
  /** Entries per append statement. */
  batchEntries: number;
  /** How long entries are kept (WEIR_JOURNAL_RETENTION, default 7d); whole days are dropped. */
  retentionMs: number;
}

export function journalConfigFromEnv(): JournalConfig {
  return {
    enabled: setting("WEIR_JOURNAL") === "on",
    bufferEntries: setting("WEIR_JOURNAL_BUFFER"),
    flushMs: setting("WEIR_JOURNAL_FLUSH_MS"),
    batchEntries: 5_000,
    retentionMs: setting("WEIR_JOURNAL_RETENTION"),
  };
}
