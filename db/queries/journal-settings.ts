import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/types";
import { journalSettings } from "@/db/schema/journal";

export interface JournalSettingRow {
  subjectKind: string;
  subject: string;
  level: string;
  updatedAt: Date;
}

/** Every subject whose journal level was set; the others keep everything. */
export async function listJournalSettings(db: DbOrTx): Promise<JournalSettingRow[]> {
  return db.select().from(journalSettings);
}

/** The level a subject has now and, when set, since when. */
export async function findJournalSetting(db: DbOrTx, subjectKind: string, subject: string): Promise<JournalSettingRow | undefined> {
  const rows = await db
    .select()
    .from(journalSettings)
    .where(sql`${journalSettings.subjectKind} = ${subjectKind} and ${journalSettings.subject} = ${subject}`);
  return rows[0];
}

export async function upsertJournalSetting(db: DbOrTx, subjectKind: string, subject: string, level: string): Promise<void> {
  await db
    .insert(journalSettings)
    .values({ subjectKind, subject, level })
    .onConflictDoUpdate({ target: [journalSettings.subjectKind, journalSettings.subject], set: { level, updatedAt: sql`now()` } });
}
