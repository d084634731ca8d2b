import { ValidationError } from "@/lib/errors";

const DURATION = /^(\d{1,6})([dhm]?)$/;
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, "": 86_400_000 };

/** "7d", "36h", "90m" or a bare number of days, in ms. */
export function parseRetention(text: string): number {
  const found = DURATION.exec(text.trim());
  if (!found || Number(found[1]) === 0) {
    throw new ValidationError(`WEIR_JOURNAL_RETENTION must be a duration like 7d, 36h or 90m, not "${text}"`, "WEIR_JOURNAL_RETENTION");
  }
  return Number(found[1]) * UNIT_MS[found[2]!]!;
}

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

export function journalConfigFromEnv(env: NodeJS.ProcessEnv = process.env): JournalConfig {
  return {
    enabled: env.WEIR_JOURNAL !== "off",
    bufferEntries: Number(env.WEIR_JOURNAL_BUFFER || 100_000),
    flushMs: Number(env.WEIR_JOURNAL_FLUSH_MS || 1_000),
    batchEntries: 5_000,
    retentionMs: parseRetention(env.WEIR_JOURNAL_RETENTION || "7d"),
  };
}
