-- The journal's answers per subject, caller and quarter hour (db/schema/journal.ts): the Sources page
-- sums these for whole quarters instead of counting every entry. Filled by the journal's upkeep from the journal itself.
CREATE TABLE "journal_callers_quarter" (
	"mode" text NOT NULL,
	"subject" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"caller" text NOT NULL,
	"answers" bigint NOT NULL,
	"duplicates" bigint NOT NULL,
	CONSTRAINT "journal_callers_quarter_pkey" PRIMARY KEY("mode","subject","bucket","caller")
);
--> statement-breakpoint
CREATE INDEX "journal_callers_quarter_by_subject_bucket" ON "journal_callers_quarter" USING btree ("subject","bucket");