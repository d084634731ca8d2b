import { listJournalSettings } from "@/db/queries/journal-settings";
import type { DbOrTx } from "@/db/types";
import type { JournalLevel, SubjectKind } from "./entry";

const REFRESH_MS = 5_000;

/**
 * Each subject's journal level, read off the decision's path by the writer: at most every few
 * seconds, one small read. A level change therefore applies within REFRESH_MS on every node, and
 * at once on the node that made it (reload).
 */
export class JournalLevels {
  private levels = new Map<string, JournalLevel>();
  private readAt = 0;

  async refresh(db: DbOrTx, now = Date.now()): Promise<void> {
    if (now - this.readAt < REFRESH_MS) return;
    try {
      const rows = await listJournalSettings(db);
      this.levels = new Map(rows.map((row) => [`${row.subjectKind}\u0000${row.subject}`, row.level as JournalLevel]));
      this.readAt = now;
    } catch (err) {
      // The last levels read stay in force; the append that follows fails the same way and is retried.
      console.error(`[weir] journal levels not read: ${(err as Error).message}`);
    }
  }

  /** Reads the levels now: after a level change in this process, so its next answers follow it. */
  async reload(db: DbOrTx): Promise<void> {
    this.readAt = 0;
    await this.refresh(db);
  }

  /** On every answer's path: a map lookup, none while every subject keeps every answer. */
  of(kind: SubjectKind, subject: string): JournalLevel {
    if (this.levels.size === 0) return "all";
    return this.levels.get(`${kind}\u0000${subject}`) ?? "all";
  }
}
