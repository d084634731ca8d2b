import { z } from "zod";
import { hashSchema, serviceIdSchema } from "./common";

/** JSON pointer (RFC 6901): empty or "/"-prefixed segments with ~0 / ~1 escapes. */
export const jsonPointerSchema = z
  .string()
  .max(1024)
  .regex(/^(\/([^~]|~[01])*)+$/, "must be a JSON pointer such as /meta/sentAt");

export const serviceSettingsSchema = z.object({
  displayName: z.string().trim().min(1).max(200).optional(),
  ignoredPaths: z.array(jsonPointerSchema).max(100).default([]),
  historyDepth: z.number().int().min(0).max(100).default(0),
});
export type ServiceSettingsInput = z.input<typeof serviceSettingsSchema>;

export const createServiceSchema = serviceSettingsSchema.extend({ id: serviceIdSchema });
export type CreateServiceInput = z.input<typeof createServiceSchema>;

export const serviceSchema = z.object({
  id: serviceIdSchema,
  displayName: z.string(),
  ignoredPaths: z.array(z.string()),
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
    version: z.number().int(),
    firstSeen: z.string(),
    lastChanged: z.string(),
  }),
  versions: z.array(z.object({ version: z.number().int(), hash: hashSchema, payload: z.string(), recordedAt: z.string() })),
});
