import { z } from "zod";

/** Rejects what PostgreSQL text cannot hold (NUL) or would silently alter (lone surrogates). */
export const storableText = (value: string) => !value.includes("\u0000") && value.isWellFormed();

export const serviceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, "1-128 characters: letters, digits, '.', '_', ':' or '-', starting with a letter or digit")
  .describe("Projection, adapter or customer id");

export const messageIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(512, "must be at most 512 characters")
  .refine(storableText, "must not contain NUL or unpaired surrogates")
  .describe("Entity or message id");

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
