import { z } from "zod";
import { messageIdSchema, serviceIdSchema } from "./common";

export const MAX_EXPLAIN_PAYLOAD_CHARS = 1_000_000;

export const explainInputSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: messageIdSchema,
  payload: z.string().min(1, "paste the payload as JSON").max(MAX_EXPLAIN_PAYLOAD_CHARS, "at most 1,000,000 characters"),
});
export type ExplainInput = z.input<typeof explainInputSchema>;
