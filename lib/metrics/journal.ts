import { Counter, Gauge, type Registry } from "prom-client";
import { journal } from "@/lib/journal";
import { metrics } from "./registry";

/** A counter that follows a running total kept elsewhere: each scrape adds what it grew by since the last. */
function totalCounter(name: string, help: string, total: () => number, registers: Registry[]): Counter {
  let seen = 0;
  return new Counter({
    name,
    help,
    registers,
    collect() {
      const now = total();
      this.inc(now - seen);
      seen = now;
    },
  });
}

/**
 * The journal writer's own figures, read at each scrape: entries written, entries dropped because
 * the buffer was full (the console names the gaps), answers left out by their subject's level, and
 * entries waiting now.
 */
function createJournalMetrics() {
  const registers = [metrics.registry];
  return {
    written: totalCounter(
      "weir_journal_written_total",
      "Decision journal entries written to the store by this process",
      () => journal.buffer.writtenTotal,
      registers,
    ),
    dropped: totalCounter(
      "weir_journal_dropped_total",
      "Decision journal entries dropped because this process's buffer was full (WEIR_JOURNAL_BUFFER); each is a named gap",
      () => journal.buffer.droppedTotal,
      registers,
    ),
    skipped: totalCounter(
      "weir_journal_skipped_total",
      "Answers this process left out of the decision journal because of their subject's journal level",
      () => journal.skippedTotal,
      registers,
    ),
    buffered: new Gauge({
      name: "weir_journal_buffered",
      help: "Decision journal entries waiting in this process's buffer to be written",
      registers,
      collect() {
        this.set(journal.buffer.size);
      },
    }),
  };
}

const HANDLE = Symbol.for("weir.metrics.journal");
export const journalMetrics = ((globalThis as Record<symbol, ReturnType<typeof createJournalMetrics>>)[HANDLE] ??= createJournalMetrics());
