import { z } from "zod";
import { MAX_WINDOW_SECONDS } from "./limits";
import { firstRefSchema, messageIdSchema, refSchema, textSchema } from "./common";

export const MAX_CLAIM_BATCH_ITEMS = 1000;

export const consumerGroupIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, "1-128 characters: letters, digits, '.', '_', ':' or '-', starting with a letter or digit")
  .describe("Consumer group id");

export const ttlSecondsSchema = z
  .number()
  .int()
  .min(1, "must be at least 1 second")
  .max(MAX_WINDOW_SECONDS, "must be at most 365 days (31536000 seconds)")
  .describe("Claim window in seconds");

export const graceSecondsSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_WINDOW_SECONDS, "must be at most 365 days (31536000 seconds)")
  .nullable()
  .describe("How long expired records are kept to detect late redeliveries; null means one TTL");

export const reasonSchema = textSchema(1000, { min: 1, minMessage: "must say why", trim: true }).describe("Why, for the audit log");

const isoDate = z.string().describe("ISO 8601");

export const claimRequestSchema = z.object({
  consumerGroup: consumerGroupIdSchema,
  messageId: messageIdSchema,
  ref: refSchema.optional(),
});

export const claimBatchRequestSchema = z.object({
  // The same answers as the check batch's exact parser (check-envelope.ts): one error shape for batch limits.
  items: z.array(claimRequestSchema).min(1, "at least one item").max(MAX_CLAIM_BATCH_ITEMS, `at most ${MAX_CLAIM_BATCH_ITEMS} items per batch`),
});

export const claimResponseSchema = z.object({
  consumerGroup: consumerGroupIdSchema,
  messageId: messageIdSchema,
  decision: z.enum(["new", "duplicate"]),
  ttlSeconds: z.number().int().describe("The group's TTL the decision was made with"),
  lateRedelivery: z
    .object({ lateBySeconds: z.number().describe("How long after the window expired the message came back") })
    .optional()
    .describe("Present when the record existed but its window had expired"),
  windowStartedAt: isoDate
    .nullable()
    .describe(
      "When the window started: this claim when new; for a duplicate, the claim it matched (a sliding group then restarts the window now). " +
        "Null only when a concurrent winning claim was released before weir could read it",
    ),
  windowEndsAt: isoDate.nullable().describe("windowStartedAt + ttlSeconds: a redelivery before then is a duplicate"),
  firstRef: firstRefSchema.optional().describe("On a duplicate only: the ref given with the claim that opened the window (null: none)"),
});

export const claimBatchResponseSchema = z.object({
  results: z.array(claimResponseSchema).describe("In the order of the request's items"),
});

export const claimReleaseRequestSchema = z.object({
  consumerGroup: consumerGroupIdSchema,
  messageId: messageIdSchema,
  claimedAt: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00.000Z" })
    .optional()
    .describe("The claim's windowStartedAt: only that claim is released, never a later one (409 if the key was claimed again)"),
});

export const claimReleaseResponseSchema = z.object({
  consumerGroup: consumerGroupIdSchema,
  messageId: messageIdSchema,
  released: z.boolean().describe("True when a claim inside its window was forgotten: the next claim of the message is new"),
  reason: z
    .enum(["released", "absent", "expired"])
    .describe("absent: no claim stored (never claimed, already released or cleaned up); expired: its window had already passed"),
  claimedAt: isoDate.nullable().describe("When the released (or expired) claim was made; null when absent"),
});

export const slideSchema = z
  .boolean()
  .describe("Sliding window: a duplicate restarts the record's window, so a message redelivered more often than the TTL stays a duplicate");

export const putConsumerGroupSchema = z.object({
  ttlSeconds: ttlSecondsSchema,
  graceSeconds: graceSecondsSchema.optional().describe("Omitted: keep the current grace period (one TTL for a new group)"),
  slide: slideSchema.optional().describe("Omitted: keep the current setting (false for a new group)"),
  reason: reasonSchema,
});
export type PutConsumerGroupInput = z.input<typeof putConsumerGroupSchema>;

/** A group's settings change as the one verb takes it from every door: the PUT body and the group's id. */
export const groupSettingsChangeSchema = putConsumerGroupSchema.extend({ consumerGroup: consumerGroupIdSchema });
export type GroupSettingsChangeInput = z.input<typeof groupSettingsChangeSchema>;

export const consumerGroupSchema = z.object({
  id: consumerGroupIdSchema,
  ttlSeconds: z.number().int(),
  graceSeconds: z.number().int().nullable(),
  effectiveGraceSeconds: z.number().int().describe("The grace period applied: graceSeconds, or one TTL"),
  slide: slideSchema,
  createdAt: isoDate,
  updatedAt: isoDate,
});

export const ttlChangeSchema = z.object({
  id: z.number().int(),
  consumerGroup: consumerGroupIdSchema,
  oldTtlSeconds: z.number().int(),
  newTtlSeconds: z.number().int(),
  oldGraceSeconds: z.number().int().nullable(),
  newGraceSeconds: z.number().int().nullable(),
  created: z.boolean(),
  actor: z.string(),
  reason: z.string().nullable(),
  at: isoDate,
  expiredAtOnce: z.number().int(),
  revived: z.number().int(),
});

export const putConsumerGroupResponseSchema = z.object({
  group: consumerGroupSchema,
  created: z.boolean(),
  change: ttlChangeSchema.nullable().describe("The history row written; null when nothing changed"),
});

export const consumerGroupListSchema = z.object({
  defaultTtlSeconds: z.number().int().describe("TTL of groups that have no settings"),
  groups: z.array(consumerGroupSchema),
});

export const ttlPreviewRequestSchema = z.object({ ttlSeconds: ttlSecondsSchema });
export const groupTtlPreviewSchema = ttlPreviewRequestSchema.extend({ consumerGroup: consumerGroupIdSchema });
export type GroupTtlPreviewInput = z.input<typeof groupTtlPreviewSchema>;

export const ttlPreviewResponseSchema = z.object({
  consumerGroup: consumerGroupIdSchema,
  configured: z.boolean().describe("False when the group runs on the default TTL"),
  currentTtlSeconds: z.number().int(),
  newTtlSeconds: z.number().int(),
  liveNow: z.number().int(),
  liveAfter: z.number().int(),
  expireAtOnce: z.number().int().describe("Shortening: live records the new TTL expires at once"),
  liveOn: z.number().int().describe("Lengthening: live records whose window the new TTL extends"),
  revived: z.number().int().describe("Lengthening: stored expired records brought back inside the window"),
});

export const ttlChangesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().min(1).optional().describe("Page back: only changes with a smaller id"),
});

export const ttlChangesResponseSchema = z.object({
  changes: z.array(ttlChangeSchema).describe("Newest first"),
  nextBefore: z.number().int().nullable().describe("Pass as `before` for the next page; null on the last page"),
});

export const cleanupRequestSchema = z.object({
  batchSize: z.number().int().min(1).max(50_000).optional().describe("Rows per delete statement (default 5000)"),
  maxBatches: z.number().int().min(1).max(100_000).optional().describe("Statements in this pass (default 200)"),
});

export const cleanupLagSchema = z.object({
  seconds: z.number(),
  windowSeconds: z.number(),
  idempotencySeconds: z.number(),
});

export const cleanupResponseSchema = z.object({
  windowRecordsRemoved: z.number().int(),
  idempotencyKeysRemoved: z.number().int(),
  removed: z.number().int(),
  batches: z.number().int(),
  complete: z.boolean().describe("False when the pass stopped at maxBatches; run it again"),
  durationMs: z.number().int(),
  lag: cleanupLagSchema.describe("Seconds the oldest removable record has been waiting, after this pass"),
});
