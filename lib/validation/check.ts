import { z } from "zod";
import { firstRefSchema, hashSchema, messageIdSchema, refSchema, serviceIdSchema } from "./common";

export const MAX_BATCH_ITEMS = 1000;
/** The exact parser's nesting limit (DEFAULT_MAX_DEPTH of json-scanner.ts); a literal, as the typed client reads this file. */
export const MAX_JSON_DEPTH = 64;

export const checkRequestSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: messageIdSchema,
  payload: z
    .json()
    .describe(`The projected payload; hashed structurally (field order never matters). Nested at most ${MAX_JSON_DEPTH} levels deep (deeper: 400 too_deep)`),
  ref: refSchema.optional(),
});

/** The envelope fields, validated after the exact JSON parse has taken the payload apart. */
export const checkKeySchema = checkRequestSchema.pick({ serviceId: true, messageId: true, ref: true });

export const checkBatchRequestSchema = z.object({
  items: z.array(checkRequestSchema).min(1, "at least one item").max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} items per batch`),
});

export const decisionSchema = z.enum(["new", "changed", "duplicate"]);

export const checkResponseSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: messageIdSchema,
  decision: decisionSchema,
  version: z.number().int().describe("Version of the stored state after this check"),
  hash: hashSchema,
  hashVersion: z.number().int().describe("The service's hash settings version (ignored and included paths) `hash` was made under"),
  acceptedAt: z
    .string()
    .describe("ISO 8601: when the stored version was accepted. For a duplicate, what it matched: version `version`, accepted then"),
  firstRef: firstRefSchema.optional().describe("On a duplicate only: the ref given with the check that stored version `version` (null: none)"),
});

export const checkBatchResponseSchema = z.object({
  results: z.array(checkResponseSchema).describe("In the order of the request's items"),
});

export const revertRequestSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: messageIdSchema,
  version: z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .describe("The version a check answered `new` or `changed` with; reverted only while the key is still at it"),
});

export const revertResponseSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: messageIdSchema,
  revertedVersion: z.number().int().describe("The version that was taken back"),
  version: z.number().int().nullable().describe("The key's version now; null when a `new` was reverted and the key has no state"),
  hash: hashSchema.nullable().describe("The hash stored again; null when the key has no state"),
});
