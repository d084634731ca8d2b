import { KIND_OF, type JournalEntry, type JournalMode, type SubjectKind } from "./entry";

/** Entries dropped for one subject in one minute. */
export interface Gap {
  kind: SubjectKind;
  subject: string;
  minute: number;
  dropped: number;
}

// Distinct gap rows held at most: past it, drops still count in the total but the gap rows merge
// into one per subject at the minute of the first drop kept (the page then names a wider gap, never none).
const MAX_GAP_ROWS = 10_000;

/**
 * The node's journal entries waiting to be written. Bounded: a push into a full buffer drops the
 * entry, counts it (total, and per subject and minute: the gaps the console names) and returns at
 * once. A decision never waits for the journal.
 */
export class JournalBuffer {
  private entries: JournalEntry[] = [];
  private gaps = new Map<string, Gap>();
  /** Entries dropped since the process started (weir_journal_dropped_total). */
  droppedTotal = 0;
  /** Entries written since the process started (weir_journal_written_total). */
  writtenTotal = 0;

  constructor(public capacity: number) {}

  get size(): number {
    return this.entries.length;
  }

  push(entry: JournalEntry): boolean {
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return true;
    }
    this.drop(entry.mode, entry.subject, entry.atUs, 1);
    return false;
  }

  /** Counts `count` entries of a subject as lost: a full buffer, or a batch the store refused for good. */
  drop(mode: JournalMode, subject: string, atUs: number, count: number): void {
    this.droppedTotal += count;
    const kind = KIND_OF[mode];
    const minute = Math.floor(atUs / 60_000_000) * 60_000;
    const id = `${kind}\u0000${subject}\u0000${minute}`;
    const gap = this.gaps.get(id);
    if (gap) gap.dropped += count;
    else if (this.gaps.size < MAX_GAP_ROWS) this.gaps.set(id, { kind, subject, minute, dropped: count });
    else this.gaps.values().next().value!.dropped += count;
  }

  /** Takes up to `max` of the oldest entries, to be written (or given back with `putBack`). */
  take(max: number): JournalEntry[] {
    if (this.entries.length <= max) {
      const all = this.entries;
      this.entries = [];
      return all;
    }
    return this.entries.splice(0, max);
  }

  /** Returns entries a failed write took, ahead of newer ones; what no longer fits is dropped and counted. */
  putBack(taken: JournalEntry[]): void {
    const room = Math.max(0, this.capacity - this.entries.length);
    const kept = taken.length <= room ? taken : taken.slice(taken.length - room);
    for (const entry of taken.slice(0, taken.length - kept.length)) this.drop(entry.mode, entry.subject, entry.atUs, 1);
    this.entries = kept.concat(this.entries);
  }

  takeGaps(): Gap[] {
    const gaps = [...this.gaps.values()];
    this.gaps = new Map();
    return gaps;
  }

  putBackGaps(gaps: Gap[]): void {
    for (const gap of gaps) {
      const id = `${gap.kind}\u0000${gap.subject}\u0000${gap.minute}`;
      const held = this.gaps.get(id);
      if (held) held.dropped += gap.dropped;
      else this.gaps.set(id, gap);
    }
  }
}
