import { z } from "zod";
import { hashSchema, storableText } from "./common";
import { MAX_WINDOW_SECONDS } from "./limits";
import { reasonSchema } from "./window";


export const scopeIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, "1-128 characters: letters, digits, '.', '_', ':' or '-', starting with a letter or digit")
  .describe("Idempotency scope: an API, an endpoint or a tenant");

export const idempotencyKeySchema = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .refine(storableText, "must not contain NUL or unpaired surrogates")
  .describe("The Idempotency-Key the client sent");

const requestFields = {
  requestHash: hashSchema.optional().describe("Structural hash of the request; or send `request`"),
  request: z.json().optional().describe("The request itself; weir hashes it structurally (exact numbers)"),
};

const oneRequest = (value: { requestHash?: string; request?: unknown }) =>
  (value.requestHash === undefined) !== (value.request === undefined);
const oneRequestError = { message: "give exactly one of requestHash and request", path: ["requestHash"] };

export const beginRequestSchema = z.object({ key: idempotencyKeySchema, ...requestFields }).refine(oneRequest, oneRequestError);

export const storedResponseSchema = z.object({
  status: z.number().int().min(100).max(599),
  body: z.string().refine(storableText, "must not contain NUL or unpaired surrogates").describe("Kept and replayed verbatim"),
  headers: z.record(z.string().min(1).max(256), z.string().max(8192)).default({}),
});

export const completeRequestSchema = z
  .object({
    key: idempotencyKeySchema,
    ...requestFields,
    attempt: z.number().int().min(1).optional().describe("The attempt begin returned: refuses a caller whose lock was taken over"),
    response: storedResponseSchema,
  })
  .refine(oneRequest, oneRequestError);

export const releaseRequestSchema = z.object({
  key: idempotencyKeySchema,
  requestHash: hashSchema.optional(),
  attempt: z.number().int().min(1).optional(),
});

const isoDate = z.string().describe("ISO 8601");

export const beginStartedSchema = z.object({
  outcome: z.literal("started"),
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  requestHash: hashSchema,
  attempt: z.number().int().describe("Grows with every start or takeover of the key"),
  lockedUntil: isoDate.describe("Complete or release before this, or another caller may take over"),
});

export const beginCompletedSchema = z.object({
  outcome: z.literal("completed"),
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  requestHash: hashSchema,
  response: z.object({ status: z.number().int(), body: z.string(), headers: z.record(z.string(), z.string()) }),
  completedAt: isoDate,
});

export const inProgressErrorSchema = z.object({
  error: z.object({
    code: z.literal("in_progress"),
    message: z.string(),
    attempt: z.number().int(),
    lockedUntil: isoDate,
  }),
});

export const mismatchErrorSchema = z.object({
  error: z.object({
    code: z.literal("mismatch"),
    message: z.string(),
    storedHash: hashSchema,
    requestHash: hashSchema,
  }),
});

export const completeResponseSchema = z.object({
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  attempt: z.number().int(),
  completedAt: isoDate,
  expiresAt: isoDate,
  alreadyCompleted: z.boolean().describe("The key was already completed for this request; the first response stays"),
});

export const releaseResponseSchema = z.object({
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  released: z.boolean().describe("False when the key was absent or expired"),
});

export const putScopeSchema = z.object({
  lockSeconds: z.number().int().min(1).max(86_400).optional().describe("Lock of a started key (default 90)"),
  retentionSeconds: z.number().int().min(1).max(MAX_WINDOW_SECONDS).optional().describe("How long keys are kept (default 86400)"),
  reason: reasonSchema.optional(),
});
export type PutScopeInput = z.input<typeof putScopeSchema>;

export const scopeSchema = z.object({
  id: scopeIdSchema,
  lockSeconds: z.number().int(),
  retentionSeconds: z.number().int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

export const putScopeResponseSchema = z.object({
  scope: scopeSchema,
  created: z.boolean(),
  changed: z.boolean(),
});
