import { z } from "zod";
import { messageIdSchema, serviceIdSchema, textSchema } from "./common";
import { reasonSchema } from "./window";

/** What to erase: every key of a service, consumer group or idempotency scope, or one of its keys. */
export const eraseSelectionSchema = z.object({
  kind: z.enum(["service", "group", "scope"]).describe("service: last-seen state; group: window claims; scope: idempotency keys"),
  subject: serviceIdSchema.describe("The service, consumer group or idempotency scope id"),
  key: messageIdSchema.optional().describe("One message id or idempotency key; absent erases every key of the subject"),
});
export type EraseSelection = z.output<typeof eraseSelectionSchema>;
export type EraseSelectionInput = z.input<typeof eraseSelectionSchema>;

export const eraseSchema = eraseSelectionSchema.extend({
  reason: reasonSchema,
  /** The key when one key is erased, else the subject id, typed: an erasure cannot be undone. */
  confirmation: textSchema(600).optional().describe("The key (one key) or the subject id (every key), typed"),
});
export type EraseInput = z.input<typeof eraseSchema>;

export const erasePreviewSchema = z.object({
  kind: z.enum(["service", "group", "scope"]),
  subject: z.string(),
  key: z.string().nullable().describe("Null for every key of the subject"),
  counts: z.record(z.string(), z.number().int()).describe("Rows per table (journal rows per mode) that an erasure removes or redacts"),
  total: z.number().int(),
  confirmWord: z.string().describe("What to type as the confirmation"),
});

export const eraseResultSchema = erasePreviewSchema.extend({
  auditId: z.number().int(),
  keyHash: z.string().nullable().describe("sha256: and the hex digest of the key's UTF-8 bytes, as the audit keeps it"),
  durationMs: z.number().int(),
});

/** A payload-history (service) or stored-response (idempotency scope) age limit; null removes it. */
export const retentionChangeSchema = z.object({
  kind: z.enum(["service", "scope"]).describe("service: payload history; scope: stored idempotency responses"),
  subject: serviceIdSchema.describe("The service or idempotency scope id"),
  maxAgeSeconds: z
    .number()
    .int()
    .min(60, "must be at least 60 seconds")
    .max(315_360_000, "must be at most ten years")
    .nullable()
    .describe("Rows older than this are removed by the retention job; null keeps them (payload history while the key lives, responses until the key expires)"),
  reason: reasonSchema,
}).superRefine((v, ctx) => {
  if (v.kind === "scope" && v.maxAgeSeconds !== null && v.maxAgeSeconds > 31_536_000) {
    ctx.addIssue({ code: "custom", path: ["maxAgeSeconds"], message: "a stored response is kept at most a year" });
  }
});
export type RetentionChangeInput = z.input<typeof retentionChangeSchema>;

/** The body of PUT .../retention: the subject is in the path. */
export const retentionBodySchema = z.object({
  maxAgeSeconds: z.number().int().nullable().describe("Rows older than this are removed by the retention job; null removes the limit"),
  reason: reasonSchema,
});

export const retentionChangeResultSchema = z.object({
  kind: z.enum(["service", "scope"]),
  subject: z.string(),
  before: z.number().int().nullable(),
  maxAgeSeconds: z.number().int().nullable(),
});
