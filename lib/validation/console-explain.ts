import { z } from "zod";
import { messageIdSchema, serviceIdSchema } from "./common";

export const MAX_EXPLAIN_PAYLOAD_CHARS = 1_000_000;

export const explainInputSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: messageIdSchema,
  payload: z.string().min(1, "paste the payload as JSON").max(MAX_EXPLAIN_PAYLOAD_CHARS, "at most 1,000,000 characters"),
});
export type ExplainInput = z.input<typeof explainInputSchema>;

/** The explain route's body: the service is in the path; the payload is JSON text, so its numbers arrive exactly as written. */
export const explainRequestSchema = explainInputSchema.omit({ serviceId: true }).extend({
  payload: explainInputSchema.shape.payload.describe("The payload as JSON text (a string), exactly as a check would send it"),
});

const settingsSchema = { ignoredPaths: z.array(z.string()), includedPaths: z.array(z.string()), normalise: z.array(z.string()) };

export const explanationSchema = z.object({
  serviceId: z.string(),
  messageId: z.string(),
  ...settingsSchema,
  ignoredPresent: z.array(z.string()).describe("Ignored paths found in the payload"),
  canonical: z.string().describe("What is hashed: the payload after the included and ignored paths and the normalisations"),
  hash: z.string(),
  hashVersion: z.number().int(),
  stored: z
    .object({ hash: z.string(), version: z.number().int(), hashVersion: z.number().int(), firstSeen: z.string(), lastChanged: z.string() })
    .nullable(),
  storedSettings: z.object({ hashVersion: z.number().int(), ...settingsSchema, hash: z.string() }).nullable(),
  decision: z.enum(["new", "changed", "duplicate"]),
  version: z.number().int(),
  diff: z.object({ version: z.number().int(), entries: z.array(z.unknown()) }).nullable(),
});
