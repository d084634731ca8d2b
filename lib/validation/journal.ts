import { z } from "zod";
import { messageIdSchema, textSchema } from "./common";

export const JOURNAL_MODES = ["last_seen", "window", "idempotency"] as const;
export const JOURNAL_SUBJECT_KINDS = ["service", "group", "scope"] as const;
export const JOURNAL_LEVEL_VALUES = ["all", "changes_and_duplicates", "off"] as const;
export const MAX_JOURNAL_PAGE = 1000;
/** The longest range one journal read spans: a week (the default retention). */
export const MAX_JOURNAL_RANGE_MS = 31 * 86_400_000;

export const journalModeSchema = z.enum(JOURNAL_MODES).describe("last_seen (services), window (consumer groups) or idempotency (scopes)");
export const journalSubjectKindSchema = z.enum(JOURNAL_SUBJECT_KINDS).describe("service, group or scope");
export const journalLevelSchema = z
  .enum(JOURNAL_LEVEL_VALUES)
  .describe("all: every answer; changes_and_duplicates: every answer but first acceptances (new, started); off: none");

/** A service, group or scope id: the three share one format. */
export const journalSubjectSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, "1-128 characters: letters, digits, '.', '_', ':' or '-', starting with a letter or digit")
  .describe("Service, consumer group or idempotency scope id");

export const setJournalLevelSchema = z.object({
  level: journalLevelSchema,
  reason: textSchema(1000, { trim: true }).optional().describe("Why, for the audit log"),
});

export const journalKeyOf = messageIdSchema.describe("Message id or idempotency key");
