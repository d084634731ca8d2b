import { z } from "zod";
import { NORMALISATIONS, validateJsonPointer } from "../dedup/canonical/path-filter";
import { hashSchema, serviceIdSchema, storableText, textSchema, UNSTORABLE_TEXT } from "./common";

/** Longest ignored path, in characters; a payload nests at most 64 levels, so longer paths cannot match. */
export const MAX_POINTER_CHARS = 512;
const POINTER_MESSAGE = "must be a JSON pointer such as /meta/sentAt";

/**
 * JSON pointer (RFC 6901): "/"-prefixed segments with ~0 / ~1 escapes. Checked by the
 * engine's own one-pass parser (linear), after the length bound, never by a backtracking regex.
 */
export const jsonPointerSchema = z.string().superRefine((pointer, ctx) => {
  if (pointer.length > MAX_POINTER_CHARS) return ctx.addIssue({ code: "custom", message: `must be at most ${MAX_POINTER_CHARS} characters` });
  if (!storableText(pointer)) return ctx.addIssue({ code: "custom", message: UNSTORABLE_TEXT });
  if (pointer === "" || !isJsonPointer(pointer)) ctx.addIssue({ code: "custom", message: POINTER_MESSAGE });
});

function isJsonPointer(pointer: string): boolean {
  try {
    validateJsonPointer(pointer);
    return true;
  } catch {
    return false;
  }
}

export const serviceSettingsSchema = z.object({
  displayName: textSchema(200, { min: 1, trim: true }).optional(),
  ignoredPaths: z.array(jsonPointerSchema).max(100).default([]).describe("JSON pointers stripped before hashing"),
  includedPaths: z
    .array(jsonPointerSchema)
    .max(100)
    .default([])
    .describe("JSON pointers of the only subtrees hashed (empty: the whole payload); ignored paths apply inside them"),
  normalise: z
    .array(z.enum(NORMALISATIONS))
    .max(NORMALISATIONS.length)
    .optional()
    .describe(
      "Normalisations before hashing: numbers (by exact decimal value), nulls (null as absent), empty_containers (empty objects and arrays left out). Omitted: a new service gets all three, an existing one keeps its own. See docs/normalisation.md",
    ),
  historyDepth: z.number().int().min(0).max(100).default(0),
});
export type ServiceSettingsInput = z.input<typeof serviceSettingsSchema>;

export const createServiceSchema = serviceSettingsSchema.extend({ id: serviceIdSchema });
export type CreateServiceInput = z.input<typeof createServiceSchema>;

export const serviceSchema = z.object({
  id: serviceIdSchema,
  displayName: z.string(),
  ignoredPaths: z.array(z.string()),
  includedPaths: z.array(z.string()),
  normalise: z.array(z.enum(NORMALISATIONS)).describe("Normalisations applied before hashing (part of the hash settings)"),
  hashVersion: z.number().int().describe("Bumped by every change of the ignored or included paths or the normalisations; stored hashes are compared under the version that made them"),
  historyDepth: z.number().int(),
  createdAt: z.string().describe("ISO 8601"),
  updatedAt: z.string().describe("ISO 8601"),
});

/** One key's stored state and the payload versions kept for it (the key detail route and client). */
export const keyDetailSchema = z.object({
  service: serviceSchema,
  state: z.object({
    serviceId: z.string(),
    messageId: z.string(),
    hash: hashSchema,
    hashVersion: z.number().int().describe("The service's hash settings version the hash was made under"),
    version: z.number().int(),
    firstSeen: z.string(),
    lastChanged: z.string(),
    ref: z.string().nullable().describe("The caller's ref given with the check that stored this version (null: none)"),
  }),
  versions: z.array(z.object({ version: z.number().int(), hash: hashSchema, payload: z.string(), recordedAt: z.string() })),
});
