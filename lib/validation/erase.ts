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
