import type { DbOrTx } from "@/db/types";
import { journalConfigFromEnv } from "@/lib/journal/config";
import type { JournalLevel } from "@/lib/journal/entry";
import { journalLevelOf } from "@/lib/journal/set-level";
import type { JournalKind } from "./journal-format";

export interface JournalLevelView {
  level: JournalLevel;
  /** False when this node keeps no journal at all (WEIR_JOURNAL=off), whatever the level. */
  enabled: boolean;
}

/** What the journal keeps of one subject's answers now. */
export async function loadJournalLevel(db: DbOrTx, kind: JournalKind, subject: string): Promise<JournalLevelView> {
  return { level: await journalLevelOf(db, kind, subject), enabled: journalConfigFromEnv().enabled };
}
