import { simulatedMicros } from "@/lib/telemetry/decision-clock";
import { onDecision } from "@/lib/telemetry/decisions";
import { nowMicros } from "./clock";
import { journalConfigFromEnv } from "./config";
import { JournalBuffer } from "./buffer";
import { toEntry } from "./entry";
import { JournalWriter } from "./writer";

const config = journalConfigFromEnv();

// server.ts and Next's bundles may load this module separately: one buffer and writer per process.
const HANDLE = Symbol.for("weir.journal");
export const journal: JournalWriter = ((globalThis as Record<symbol, JournalWriter>)[HANDLE] ??= new JournalWriter(
  new JournalBuffer(config.bufferEntries),
  { batchEntries: config.batchEntries, retentionMs: config.retentionMs },
));

/** Writes this process's journal as batches fill and every WEIR_JOURNAL_FLUSH_MS (the server, or a library-mode service). */
export function startJournal(getDb: Parameters<JournalWriter["start"]>[0], getMaintenanceDb = getDb): JournalWriter {
  journal.start(getDb, config.flushMs, getMaintenanceDb);
  return journal;
}

// Every process that imports the journal keeps every answer made in it: a push into a bounded buffer.
if (config.enabled) {
  onDecision("journal", (event) => {
    // A store error is no answer: it takes no journal time and no entry.
    if (event.decision === "error") return;
    const entry = toEntry(event, simulatedMicros() ?? nowMicros());
    if (entry) journal.add(entry);
  });
}
