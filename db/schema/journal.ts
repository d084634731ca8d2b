import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The decision journal's per-subject switch: `all` keeps every answer, `changes_and_duplicates`
 * leaves out first acceptances (new, started), `off` keeps nothing. A subject without a row keeps all.
 * The journal itself (`journal`, partitioned by day) is declared in migration 0014: drizzle cannot
 * declare a partitioned table, and only raw statements (db/queries/journal*.ts) read or write it.
 */
export const journalSettings = pgTable(
  "journal_settings",
  {
    subjectKind: text("subject_kind").notNull(),
    subject: text("subject").notNull(),
    level: text("level").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "journal_settings_pkey", columns: [t.subjectKind, t.subject] }),
    check("journal_settings_kind", sql`${t.subjectKind} in ('service', 'group', 'scope')`),
    check("journal_settings_level", sql`${t.level} in ('all', 'changes_and_duplicates', 'off')`),
  ],
);

/** Journal entries dropped because the node's buffer was full, per subject and minute: the gaps the console names. */
export const journalGaps = pgTable(
  "journal_gaps",
  {
    subjectKind: text("subject_kind").notNull(),
    subject: text("subject").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    dropped: bigint("dropped", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "journal_gaps_pkey", columns: [t.subjectKind, t.subject, t.minute] })],
);

/**
 * The journal's answers counted per subject, caller, decision and UTC quarter hour: what the Sources
 * page and the incident view sum for the whole quarters of a range (db/queries/journal-answers.ts),
 * rolled up from the journal every few minutes. Without it, the sources of every service over 24
 * hours counted every entry of two days. A caller that gave no name is ''; subject '' holds a
 * mode's sums over all its subjects. Kept as long as the journal.
 */
export const journalAnswersQuarter = pgTable(
  "journal_answers_quarter",
  {
    mode: text("mode").notNull(),
    subject: text("subject").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    caller: text("caller").notNull(),
    decision: text("decision").notNull(),
    answers: bigint("answers", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "journal_answers_quarter_pkey", columns: [t.mode, t.subject, t.bucket, t.caller, t.decision] }),
    // Every mode's sums over a range of quarters (subject '': Sources and the incident view of every
    // subject), read from the index alone: the rows of subject '' are spread over the whole heap,
    // one block each (1,500 blocks for 24 hours).
    index("journal_answers_quarter_by_subject_bucket").on(t.subject, t.bucket, t.mode, t.caller, t.decision, t.answers),
  ],
);
