import { appendJournal, recordJournalGaps } from "@/db/queries/journal-append";
import { dropJournalAnswersBefore, rollUpJournalAnswers } from "@/db/queries/journal-answers";
import { createJournalPartitions, dayStart, dropJournalPartitionsBefore, listJournalPartitions } from "@/db/queries/journal-partitions";
import type { DbOrTx } from "@/db/types";
import { JournalBuffer } from "./buffer";
import { KIND_OF, keptAt, type JournalEntry } from "./entry";
import { JournalLevels } from "./levels";

const MAINTENANCE_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
// PostgreSQL's "no partition of relation found for row": a day's partition went missing since it was made.
const NO_PARTITION = "23514";

export interface FlushResult {
  written: number;
}

/**
 * Writes the node's journal buffer in batches, off every decision's path: a full batch as soon as
 * it is buffered, the rest every flush interval; each day's partition made before its first entry,
 * gaps recorded. Subject levels apply when an answer is buffered, so a level change never reaches
 * back to answers made before it. A failed write keeps its entries for the next flush
 * (as far as the buffer has room).
 */
export class JournalWriter {
  readonly levels = new JournalLevels();
  /** Answers left out by their subject's level since start. */
  skippedTotal = 0;
  private knownDays = new Set<number>();
  private running: Promise<FlushResult> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private maintainedAt = 0;
  private getDb: (() => Promise<DbOrTx>) | undefined;
  private intervalMs = 1000;
  /** Until when a full batch waits for the timer, not its own flush: set when a flush fails, so an outage is not retried per entry. */
  private eagerAfter = 0;
  private eager: Promise<unknown> | undefined;

  constructor(
    readonly buffer: JournalBuffer,
    private readonly options: { batchEntries: number; retentionMs: number },
  ) {}

  /**
   * Buffers one entry; once a batch is full (and the writer is started) it is written now, not at
   * the next tick. An entry held for a whole second outlives the young generation, and the old
   * one's collections cost the checks more than the writes do: with batches written as they fill,
   * entries die young (docs/journal.md, "How it is written").
   */
  add(entry: JournalEntry): void {
    if (!keptAt(this.levels.of(KIND_OF[entry.mode], entry.subject), entry.decision)) {
      this.skippedTotal += 1;
      return;
    }
    if (this.buffer.push(entry) && this.buffer.size >= this.options.batchEntries) this.flushFullBatch();
  }

  private flushFullBatch(): void {
    const getDb = this.getDb;
    if (!getDb || this.eager || this.running || Date.now() < this.eagerAfter) return;
    this.eager = getDb()
      .then((db) => this.flush(db))
      .catch((err: Error) => this.flushFailed(err))
      .finally(() => (this.eager = undefined));
  }

  private flushFailed(err: Error): void {
    this.eagerAfter = Date.now() + this.intervalMs;
    console.error(`[weir] journal flush failed, will retry: ${err.message}`);
  }

  /** Writes everything buffered now; concurrent calls share one pass. */
  flush(db: DbOrTx): Promise<FlushResult> {
    this.running ??= this.flushAll(db).finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Writes everything buffered, after any pass under way (which writes only what was there when it
   * started): what shutdown calls, once stop() has ended new passes.
   */
  async drain(db: DbOrTx): Promise<FlushResult> {
    await this.eager;
    await this.running?.catch(() => undefined);
    return this.flush(db);
  }

  private async flushAll(db: DbOrTx): Promise<FlushResult> {
    const result: FlushResult = { written: 0 };
    // Only what is here when the flush starts: a steady stream cannot keep one flush going.
    let left = this.buffer.size;
    // Off the decisions' path: the levels the next answers are kept at.
    await this.levels.refresh(db);
    while (left > 0) {
      const batch = this.buffer.take(Math.min(left, this.options.batchEntries));
      left -= batch.length;
      try {
        await this.append(db, batch);
      } catch (err) {
        this.buffer.putBack(batch);
        throw err;
      }
      this.buffer.writtenTotal += batch.length;
      result.written += batch.length;
    }
    const gaps = this.buffer.takeGaps();
    try {
      await recordJournalGaps(db, gaps);
    } catch (err) {
      this.buffer.putBackGaps(gaps);
      throw err;
    }
    return result;
  }

  private async append(db: DbOrTx, entries: JournalEntry[]): Promise<void> {
    const days = new Set(entries.map((e) => dayStart(e.atUs / 1000)));
    const missing = [...days].filter((day) => !this.knownDays.has(day));
    if (missing.length > 0) await this.makeDays(db, missing);
    try {
      await appendJournal(db, entries);
    } catch (err) {
      if ((err as { code?: string }).code !== NO_PARTITION) throw err;
      this.knownDays.clear();
      await this.makeDays(db, [...days]);
      await appendJournal(db, entries);
    }
  }

  private async makeDays(db: DbOrTx, days: number[]): Promise<void> {
    await createJournalPartitions(db, days);
    for (const day of days) this.knownDays.add(day);
  }

  /**
   * Drops the partitions past retention and makes today's and tomorrow's ahead of their first entry;
   * then counts the closed quarter hours' answers (journal_answers_quarter), kept as long as the
   * partitions they were counted from.
   */
  async maintain(db: DbOrTx, now = Date.now()): Promise<string[]> {
    this.maintainedAt = now;
    const today = dayStart(now);
    await this.makeDays(db, [today, today + DAY_MS]);
    const dropped = await dropJournalPartitionsBefore(db, now - this.options.retentionMs);
    for (const name of dropped) console.log(`[weir] journal: dropped ${name} (past WEIR_JOURNAL_RETENTION)`);
    this.knownDays = new Set([...this.knownDays].filter((day) => day + DAY_MS > now - this.options.retentionMs));
    const oldest = Math.min(today, ...(await listJournalPartitions(db)).map((p) => p.day));
    await dropJournalAnswersBefore(db, oldest);
    await rollUpJournalAnswers(db, oldest);
    return dropped;
  }

  /**
   * Flushes to `getDb` every `intervalMs`; the partitions' upkeep (DDL) goes to `getMaintenanceDb`,
   * on Citus the coordinator, which alone runs DDL. Appends need only partitions that exist (made a
   * day ahead), so a failed upkeep is logged and the flush goes on: with WEIR_CITUS_ROUTE_URLS the
   * journal is written while the coordinator is down, for up to a day.
   */
  start(getDb: () => Promise<DbOrTx>, intervalMs: number, getMaintenanceDb: () => Promise<DbOrTx> = getDb): void {
    if (this.timer) return;
    this.getDb = getDb;
    this.intervalMs = intervalMs;
    this.timer = setInterval(() => {
      getDb()
        .then(async (db) => {
          if (Date.now() - this.maintainedAt >= MAINTENANCE_MS) {
            await this.maintain(await getMaintenanceDb()).catch((err: Error) => console.error(`[weir] journal upkeep failed, will retry: ${err.message}`));
          }
          await this.flush(db);
        })
        .catch((err: Error) => this.flushFailed(err));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.getDb = undefined;
  }
}
