import { z } from "zod";
import { instantSchema, param } from "./console-common";
import { journalSubjectKindSchema, journalSubjectSchema, MAX_JOURNAL_RANGE_MS } from "./journal";

/** The default range of the incident view: the last hour. */
export const DEFAULT_INCIDENT_MS = 3_600_000;

/** A range ends after it starts and spans no more than one journal read may. */
function checkRange(q: { from: Date; to: Date }, ctx: z.RefinementCtx): void {
  if (q.from >= q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after the start" });
  else if (q.to.getTime() - q.from.getTime() > MAX_JOURNAL_RANGE_MS) {
    ctx.addIssue({ code: "custom", path: ["to"], message: `the range may span at most ${MAX_JOURNAL_RANGE_MS / 86_400_000} days` });
  }
}

const requiredInstant = instantSchema.pipe(z.date({ error: "required: a date and time such as 2025-01-31T14:00" }));

/**
 * A time range of the journal as the console's URLs carry it (from/to as a datetime-local input
 * gives them, read as UTC), with an optional subject: bounded like every journal read.
 */
export const journalRangeFilterSchema = z
  .object({
    from: requiredInstant,
    to: requiredInstant,
    kind: z.preprocess(param, journalSubjectKindSchema.optional()),
    subject: z.preprocess(param, journalSubjectSchema.optional()),
  })
  .superRefine((q, ctx) => {
    checkRange(q, ctx);
    if (q.subject && !q.kind) ctx.addIssue({ code: "custom", path: ["kind"], message: "say whether the subject is a service, a group or a scope" });
  });
export type JournalRangeFilter = z.output<typeof journalRangeFilterSchema>;

/** A chart bucket's decisions: one subject, a closed range, and whether to list duplicated keys or every key. */
export const bucketQuerySchema = z
  .object({
    kind: z.preprocess(param, journalSubjectKindSchema),
    subject: z.preprocess(param, journalSubjectSchema),
    from: requiredInstant,
    to: requiredInstant,
    show: z.preprocess(param, z.enum(["duplicates", "all"]).default("duplicates")),
  })
  .superRefine(checkRange);
export type BucketQuery = z.output<typeof bucketQuerySchema>;

/** Periods the Sources page compares: each against the one just before it. */
export const SOURCE_PERIODS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 } as const;
export type SourcePeriod = keyof typeof SOURCE_PERIODS;

export const sourcesQuerySchema = z.object({
  period: z.preprocess(param, z.enum(["1h", "24h", "7d"]).default("24h")),
  kind: z.preprocess(param, journalSubjectKindSchema.default("service")),
  subject: z.preprocess(param, journalSubjectSchema.optional()),
});
export type SourcesQuery = z.output<typeof sourcesQuerySchema>;

/** The "duplicates blocked" report: per subject of a kind, per UTC week or month. */
export const blockedReportQuerySchema = z.object({
  period: z.preprocess(param, z.enum(["week", "month"]).default("week")),
  kind: z.preprocess(param, journalSubjectKindSchema.default("service")),
  /** The first day of the one period listed with every subject (YYYY-MM-DD, UTC). */
  start: z.preprocess(param, z.iso.date("a date, YYYY-MM-DD").optional()),
});
export type BlockedReportQuery = z.output<typeof blockedReportQuerySchema>;

/** A page of a key's timeline: older than this entry time (µs), as the "older answers" link gives it. */
export const timelineBeforeSchema = z.preprocess(param, z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional());

export const exportFormatSchema = z.object({ format: z.preprocess(param, z.enum(["csv", "ndjson"]).default("csv")) });
