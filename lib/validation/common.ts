import { z } from "zod";

/** Rejects what PostgreSQL text cannot hold (NUL) or would silently alter (lone surrogates). */
export const storableText = (value: string) => !value.includes("\u0000") && value.isWellFormed();
export const UNSTORABLE_TEXT = "must not contain NUL or unpaired surrogates";

/**
 * Every free-text field weir accepts (reasons, names, prefixes, filters): bounded,
 * and free of what PostgreSQL cannot store, so bad bytes are a 400 naming the field.
 */
export function textSchema(max: number, options: { min?: number; minMessage?: string; trim?: boolean } = {}) {
  const base = options.trim ? z.string().trim() : z.string();
  const bounded = options.min ? base.min(options.min, options.minMessage) : base;
  return bounded.max(max, `must be at most ${max} characters`).refine(storableText, UNSTORABLE_TEXT);
}

export const serviceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, "1-128 characters: letters, digits, '.', '_', ':' or '-', starting with a letter or digit")
  .describe("Projection, adapter or customer id");

export const messageIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(512, "must be at most 512 characters")
  .refine(storableText, UNSTORABLE_TEXT)
  .describe("Entity or message id");

/** Longest caller ref, in bytes of UTF-8 (docs/caller-data.md). */
export const MAX_REF_BYTES = 256;

/**
 * The caller's ref (a job id, request id, free text), kept with the first acceptance and
 * returned with every duplicate. Bounded in bytes, since that is what is stored.
 */
export const refSchema = z
  .string()
  .refine((value) => Buffer.byteLength(value, "utf8") <= MAX_REF_BYTES, `must be at most ${MAX_REF_BYTES} bytes of UTF-8`)
  .refine(storableText, UNSTORABLE_TEXT)
  .describe(`Caller data kept with the first acceptance (a job id, request id or note; at most ${MAX_REF_BYTES} bytes of UTF-8) and returned with every duplicate as firstRef`);

export const firstRefSchema = z
  .string()
  .nullable()
  .describe("On a duplicate: the ref given with the first acceptance it matched (null when that request gave none)");

export const hashSchema = z.string().regex(/^[0-9a-f]{64}$/).describe("SHA-256 of the canonical form, hex");

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      field: z.string().optional(),
    }),
  })
  .describe("Every error response");
