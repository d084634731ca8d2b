-- The journal's answers per subject, caller, decision and quarter hour (db/schema/journal.ts): the Sources
-- page and the incident view sum these for whole quarters instead of counting every entry. Filled by the
-- journal's upkeep from the journal itself.
CREATE TABLE "journal_answers_quarter" (
	"mode" text NOT NULL,
	"subject" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"caller" text NOT NULL,
	"decision" text NOT NULL,
	"answers" bigint NOT NULL,
	CONSTRAINT "journal_answers_quarter_pkey" PRIMARY KEY("mode","subject","bucket","caller","decision")
);
--> statement-breakpoint
CREATE INDEX "journal_answers_quarter_by_subject_bucket" ON "journal_answers_quarter" USING btree ("subject","bucket");