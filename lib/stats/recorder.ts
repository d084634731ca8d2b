import type { STATS_SUBJECT_KINDS } from "@/db/queries/console-stats";
import { addStatsMinutes, type StatsMinuteRow } from "@/db/queries/stats-flush";
import type { DbOrTx } from "@/db/types";
import { decisionTime } from "@/lib/telemetry/decision-clock";
import { onDecision, type DecisionEvent } from "@/lib/telemetry/decisions";

export type SubjectKind = (typeof STATS_SUBJECT_KINDS)[number];
export type Outcome = "new" | "changed" | "duplicate" | "error" | "late";

interface Counters {
  checks: number;
  new: number;
  changed: number;
  duplicates: number;
  errors: number;
  late: number;
}

/**
 * Counts decisions in memory and writes them as per-minute rollups every few
 * seconds, so a duplicate check never writes to the database. Counts held when
 * the process dies are lost; decisions are not.
 */
export class StatsRecorder {
  private pending = new Map<string, Counters>();
  private timer: NodeJS.Timeout | undefined;

  record(kind: SubjectKind, subject: string, outcome: Outcome, count = 1, at = Date.now()): void {
    const bucket = Math.floor(at / 60_000) * 60_000;
    const key = `${kind}\u0000${subject}\u0000${bucket}`;
    let counters = this.pending.get(key);
    if (!counters) {
      counters = { checks: 0, new: 0, changed: 0, duplicates: 0, errors: 0, late: 0 };
      this.pending.set(key, counters);
    }
    if (outcome !== "late") counters.checks += count;
    if (outcome === "new") counters.new += count;
    else if (outcome === "changed") counters.changed += count;
    else if (outcome === "duplicate") counters.duplicates += count;
    else if (outcome === "error") counters.errors += count;
    else counters.late += count;
  }

  /** Writes what was counted; on failure the counts not written are kept for the next flush. */
  async flush(db: DbOrTx): Promise<number> {
    if (this.pending.size === 0) return 0;
    const batch = this.pending;
    this.pending = new Map();
    const rows = new Map<StatsMinuteRow, string>();
    for (const [key, c] of batch) {
      const [kind, subject, bucket] = key.split("\u0000");
      rows.set({ kind: kind!, subject: subject!, bucket: Number(bucket), counts: [c.checks, c.new, c.changed, c.duplicates, c.errors, c.late] }, key);
    }
    try {
      await addStatsMinutes(db, [...rows.keys()], (part) => part.forEach((row) => batch.delete(rows.get(row)!)));
      return rows.size;
    } catch (err) {
      for (const [key, c] of batch) this.merge(key, c);
      throw err;
    }
  }

  private merge(key: string, c: Counters): void {
    const into = this.pending.get(key);
    if (!into) return void this.pending.set(key, c);
    into.checks += c.checks;
    into.new += c.new;
    into.changed += c.changed;
    into.duplicates += c.duplicates;
    into.errors += c.errors;
    into.late += c.late;
  }

  start(getDb: () => Promise<DbOrTx>, intervalMs = 2000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      getDb()
        .then((db) => this.flush(db))
        .catch((err: Error) => console.error(`[weir] stats flush failed, will retry: ${err.message}`));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

const RECORDER = Symbol.for("weir.statsRecorder");
export const stats: StatsRecorder = ((globalThis as Record<symbol, StatsRecorder>)[RECORDER] ??= new StatsRecorder());

// A mismatch is the idempotency analogue of `changed`: the same key with different content.
const BEGIN_OUTCOMES: Record<Extract<DecisionEvent, { mode: "idempotency" }>["decision"], Outcome> = {
  started: "new",
  completed: "duplicate",
  in_progress: "duplicate",
  mismatch: "changed",
  error: "error",
};

/** The rollup's reading of a decision event: its subject, its outcome, and a late redelivery as a second count. */
export function recordDecision(event: DecisionEvent, into: StatsRecorder = stats): void {
  switch (event.mode) {
    case "last_seen":
      return into.record("service", event.subject, event.decision, 1, decisionTime());
    case "window":
      into.record("group", event.subject, event.decision, 1, decisionTime());
      if (event.lateBySeconds !== undefined) into.record("group", event.subject, "late", 1, decisionTime());
      return;
    case "idempotency":
      return into.record("scope", event.subject, BEGIN_OUTCOMES[event.decision], 1, decisionTime());
  }
}

// Every process that can flush the rollup (it imported `stats`) counts every decision made in it.
onDecision("stats", (event) => recordDecision(event));
