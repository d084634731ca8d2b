import { z } from "zod";
import { messageIdSchema, textSchema } from "./common";

export const JOURNAL_MODES = ["last_seen", "window", "idempotency"] as const;
export const JOURNAL_SUBJECT_KINDS = ["service", "group", "scope"] as const;
export const JOURNAL_LEVEL_VALUES = ["all", "changes_and_duplicates", "off"] as const;
export const MAX_JOURNAL_PAGE = 1000;
/** The longest range one journal read spans: 31 days. */
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

/** What each mode's answers are called in the journal (lib/journal/entry.ts). */
export const JOURNAL_DECISIONS = {
  last_seen: ["new", "changed", "duplicate", "reverted"],
  window: ["new", "duplicate", "late", "released", "not_released"],
  idempotency: ["started", "in_progress", "completed", "mismatch", "stored", "already_stored", "released", "not_released"],
} as const satisfies Record<(typeof JOURNAL_MODES)[number], readonly string[]>;

// Linear: fixed-width fields, each optional part opened by its own delimiter.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const LATEST_US = Number.MAX_SAFE_INTEGER;

/** An ISO 8601 time as microseconds since the epoch, or undefined when it is not one. UTC when no zone is given. */
export function instantMicros(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const fraction = (m[7] ?? "").padEnd(6, "0").slice(0, 6);
  if (month! < 1 || month! > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day! < 1 || day! > new Date(Date.UTC(year!, month!, 0)).getUTCDate()) return undefined;
  const zone = (m[8] ?? "Z").toUpperCase();
  const offsetMinutes = zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  const ms = Date.UTC(year!, month! - 1, day!, hour, minute, second) - offsetMinutes * 60_000;
  const us = ms * 1000 + Number(fraction);
  return us >= 0 && us <= LATEST_US ? us : undefined;
}

export const journalInstantSchema = z
  .string({ error: "required: an ISO 8601 time such as 2026-11-27T03:12:00Z" })
  .max(40, "must be at most 40 characters")
  .transform((text, ctx) => {
    const us = instantMicros(text);
    if (us === undefined) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 time such as 2026-11-27T03:12:00Z (UTC when no zone is given), from 1970 on" });
      return z.NEVER;
    }
    return us;
  })
  .describe("ISO 8601, microseconds allowed (an entry's `at` works); UTC when no zone is given");

/** A page position in the journal: an entry's time (µs) and key, sent back as an opaque cursor. */
export interface JournalCursor {
  atUs: number;
  key: string;
}

export function encodeJournalCursor(position: JournalCursor): string {
  return Buffer.from(JSON.stringify([position.atUs, position.key]), "utf8").toString("base64url");
}

const cursorParts = z.tuple([z.number().int().min(0).max(LATEST_US), messageIdSchema]);

/** A cursor handed out by a journal read; anything else (edited, truncated, from another API) is a 400. */
export const journalCursorSchema = z
  .string()
  .max(1024, "is not a cursor weir handed out")
  .transform((text, ctx): JournalCursor => {
    let parts: unknown;
    try {
      parts = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    } catch {
      parts = undefined;
    }
    const parsed = cursorParts.safeParse(parts);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: "is not a cursor weir handed out: pass nextCursor (or nextBefore) as it came" });
      return z.NEVER;
    }
    return { atUs: parsed.data[0], key: parsed.data[1] };
  });

/** One or several decisions: repeated (`decision=a&decision=b`) or comma-separated. */
const decisionList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean))
  .pipe(z.array(z.string().max(32, "must be at most 32 characters")).max(16, "at most 16 decisions"));

const emptyAsAbsent = (value: unknown) => (value === "" || value === null ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsAbsent, schema.optional());

/** Which subject's journal: the path of every journal route, and the CLI's first two arguments. */
export const journalSubjectRefSchema = z.object({ mode: journalModeSchema, subject: journalSubjectSchema });

/** A subject's entries in a time range, oldest first, keyset-paged. */
export const journalRangeQuerySchema = z
  .object({
    mode: journalModeSchema,
    from: journalInstantSchema.describe("Inclusive start, ISO 8601"),
    to: journalInstantSchema.describe("Exclusive end, ISO 8601"),
    decision: optional(decisionList).describe("Only these decisions: repeat the parameter or separate with commas"),
    caller: optional(textSchema(512)).describe("Only this caller (token:<id>, a library-mode caller's name, a user's email)"),
    key: optional(journalKeyOf).describe("Only this message id or idempotency key"),
    cursor: optional(journalCursorSchema).describe("The previous page's nextCursor"),
    limit: z.preprocess(emptyAsAbsent, z.coerce.number().int().min(1).max(MAX_JOURNAL_PAGE).default(100)),
  })
  .superRefine((q, ctx) => {
    if (q.from >= q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
    else if ((q.to - q.from) / 1000 > MAX_JOURNAL_RANGE_MS) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `the range may span at most ${MAX_JOURNAL_RANGE_MS / 86_400_000} days` });
    }
    const known: readonly string[] = JOURNAL_DECISIONS[q.mode];
    const unknown = (q.decision ?? []).findIndex((d) => !known.includes(d));
    if (unknown >= 0) ctx.addIssue({ code: "custom", path: ["decision"], message: `${q.mode} answers are ${known.join(", ")}` });
    if (q.cursor && (q.cursor.atUs < q.from || q.cursor.atUs >= q.to)) {
      ctx.addIssue({ code: "custom", path: ["cursor"], message: "belongs to another range: keep from and to as they were for the first page" });
    }
  });

/** One key's entries, newest first. */
export const journalKeyQuerySchema = z.object({
  key: journalKeyOf,
  before: optional(journalCursorSchema).describe("The previous page's nextBefore"),
  limit: z.preprocess(emptyAsAbsent, z.coerce.number().int().min(1).max(MAX_JOURNAL_PAGE).default(100)),
});

export const journalEntrySchema = z.object({
  at: z.string().describe("ISO 8601 with microseconds, UTC"),
  atUs: z.number().int().describe("The same time in microseconds since the epoch"),
  mode: journalModeSchema,
  subject: z.string(),
  key: z.string(),
  decision: z.string(),
  version: z.number().int().nullable().describe("The key's version (last-seen) or the attempt (idempotency keys)"),
  matchedAt: z.string().nullable().describe("When the matched version was accepted, the window started, or the key was started or completed"),
  hashVersion: z.number().int().nullable().describe("The hash settings version of a last-seen decision"),
  caller: z.string().nullable().describe("token:<id> for an API token, the library-mode caller's name"),
  requestId: z.string().nullable(),
  traceId: z.string().nullable().describe("From the W3C traceparent sent with the request"),
  ref: z.string().nullable().describe("The caller's ref given with the request (docs/caller-data.md)"),
});

export const journalGapSchema = z.object({
  minute: z.string().describe("The minute (ISO 8601) in which entries were dropped"),
  dropped: z.number().int().describe("How many, on the nodes that reported them"),
});

export const journalRangeResponseSchema = z.object({
  mode: journalModeSchema,
  subject: z.string(),
  from: z.string(),
  to: z.string(),
  entries: z.array(journalEntrySchema).describe("Oldest first"),
  nextCursor: z.string().nullable().describe("Pass as `cursor` (with the same from and to) for the next page; null on the last page"),
  gaps: z.array(journalGapSchema).describe("Minutes of the range whose entries were not all kept (a node's journal buffer was full)"),
});

export const journalKeyResponseSchema = z.object({
  mode: journalModeSchema,
  subject: z.string(),
  key: z.string(),
  entries: z.array(journalEntrySchema).describe("Newest first"),
  nextBefore: z.string().nullable().describe("Pass as `before` for older entries; null when there are none"),
});

export const journalLevelResponseSchema = z.object({
  mode: journalModeSchema,
  kind: journalSubjectKindSchema,
  subject: z.string(),
  level: journalLevelSchema,
});

export const setJournalLevelResponseSchema = journalLevelResponseSchema.extend({
  previous: journalLevelSchema,
  changed: z.boolean().describe("false when the level was already set: nothing was written or audited"),
});
