import { Counter, Gauge } from "prom-client";
import { journal } from "@/lib/journal";
import { metrics } from "./registry";

/**
 * The journal writer's own figures, read from its buffer at each scrape: entries written, entries
 * dropped because the buffer was full (the console names the gaps), and entries waiting now.
 */
function createJournalMetrics() {
  const registers = [metrics.registry];
  let written = 0;
  let dropped = 0;
  return {
    written: new Counter({
      name: "weir_journal_written_total",
      help: "Decision journal entries written to the store by this process",
      registers,
      collect() {
        this.inc(journal.buffer.writtenTotal - written);
        written = journal.buffer.writtenTotal;
      },
    }),
    dropped: new Counter({
      name: "weir_journal_dropped_total",
      help: "Decision journal entries dropped because this process's buffer was full (WEIR_JOURNAL_BUFFER); each is a named gap",
      registers,
      collect() {
        this.inc(journal.buffer.droppedTotal - dropped);
        dropped = journal.buffer.droppedTotal;
      },
    }),
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
