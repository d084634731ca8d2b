import { z } from "zod";
import { MAX_JSON_DEPTH } from "./check";
import { firstRefSchema, hashSchema, refSchema, storableText, textSchema } from "./common";
import { MAX_WINDOW_SECONDS } from "./limits";
import { reasonSchema } from "./window";

/** The longest a begin may wait for another caller's result. */
export const MAX_WAIT_SECONDS = 30;

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
  request: z
    .json()
    .optional()
    .describe(`The request itself; weir hashes it structurally (exact numbers). Nested at most ${MAX_JSON_DEPTH} levels deep (deeper: 400 too_deep)`),
};

const oneRequest = (value: { requestHash?: string; request?: unknown }) =>
  (value.requestHash === undefined) !== (value.request === undefined);
const oneRequestError = { message: "give exactly one of requestHash and request", path: ["requestHash"] };

export const beginRequestSchema = z
  .object({
    key: idempotencyKeySchema,
    ...requestFields,
    ref: refSchema.optional(),
    waitSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(
        `While another caller holds the key, wait up to this many seconds (at most ${MAX_WAIT_SECONDS}) instead of answering 409: ` +
          "a completion answers 200 with the stored response; a release or an expired lock lets this caller start (201); " +
          "409 when the wait ends. A node holding WEIR_IDEMPOTENCY_MAX_WAITERS waiters (default 1000) answers 409 at once",
      ),
  })
  .refine(oneRequest, oneRequestError);

/** complete and release are fenced: a missing attempt is refused with 400 naming the field. */
const attemptSchema = z
  .number({ error: (issue) => (issue.input === undefined ? "required: the attempt begin returned (the fencing token)" : "must be a number") })
  .int()
  .min(1)
  .describe("The attempt begin returned (the fencing token): a caller whose lock was taken over gets 409, never overwrites");

export const storedResponseSchema = z.object({
  status: z.number().int().min(100).max(599),
  body: z.string().refine(storableText, "must not contain NUL or unpaired surrogates").describe("Kept and replayed verbatim"),
  headers: z.record(textSchema(256, { min: 1 }), textSchema(8192)).default({}),
});

export const completeRequestSchema = z
  .object({
    key: idempotencyKeySchema,
    ...requestFields,
    attempt: attemptSchema,
    response: storedResponseSchema,
  })
  .refine(oneRequest, oneRequestError);

export const releaseRequestSchema = z.object({
  key: idempotencyKeySchema,
  requestHash: hashSchema.optional(),
  attempt: attemptSchema,
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
  attempt: z.number().int().describe("The attempt that completed the key"),
  completedAt: isoDate,
  firstRef: firstRefSchema.describe("The ref given with the begin of the attempt that completed the key (null: none)"),
});

export const inProgressErrorSchema = z.object({
  error: z.object({
    code: z.literal("in_progress"),
    message: z.string(),
    attempt: z.number().int().describe("The attempt that holds the key"),
    startedAt: isoDate.describe("When that attempt began"),
    lockedUntil: isoDate.describe("The Retry-After header gives the seconds until then (at least 1)"),
    waited: z.boolean().describe("True when the caller waited (waitSeconds) before this answer"),
    firstRef: firstRefSchema.describe("The ref given with the begin of the attempt that holds the key (null: none)"),
  }),
});

export const mismatchErrorSchema = z.object({
  error: z.object({
    code: z.literal("mismatch"),
    message: z.string(),
    storedHash: hashSchema,
    requestHash: hashSchema,
    firstRef: firstRefSchema.optional().describe("At begin: the ref given with the begin that took the key (null: none)"),
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

/** A scope settings change as the one verb takes it from every door: the PUT body and the scope id. */
export const scopeSettingsChangeSchema = putScopeSchema.extend({ scope: scopeIdSchema });
export type ScopeSettingsChangeInput = z.input<typeof scopeSettingsChangeSchema>;

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

export const storedResponseViewSchema = z.object({ status: z.number().int(), body: z.string(), headers: z.record(z.string(), z.string()) });

export const keyStateSchema = z.object({
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  status: z.enum(["in_progress", "completed"]),
  attempt: z.number().int().describe("Grows with every takeover; starts over at 1 after the key expired"),
  requestHash: hashSchema,
  lockedUntil: isoDate.nullable().describe("Null once completed"),
  lockExpired: z.boolean().describe("In progress with an expired lock: the next begin of the same request takes it over"),
  startedAt: isoDate.describe("When the current attempt began"),
  completedAt: isoDate.nullable(),
  expiresAt: isoDate.describe("Past this the key is forgotten"),
  response: storedResponseViewSchema.nullable().describe("The stored response once completed"),
});

export const deleteKeySchema = z.object({ reason: reasonSchema });

export const deleteKeyResponseSchema = z.object({
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  deleted: z.literal(true),
  attempt: z.number().int().describe("The attempt whose stored response was discarded"),
  completedAt: isoDate,
});
