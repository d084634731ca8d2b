import { z } from "zod";
import { consumerGroupIdSchema, reasonSchema, slideSchema, ttlSecondsSchema } from "./window";

export const ttlPreviewInputSchema = z.object({
  consumerGroup: consumerGroupIdSchema,
  ttlSeconds: z.coerce.number().pipe(ttlSecondsSchema),
});
export type TtlPreviewInput = z.input<typeof ttlPreviewInputSchema>;

export const ttlChangeInputSchema = ttlPreviewInputSchema.extend({ slide: slideSchema.optional(), reason: reasonSchema });
export type TtlChangeInput = z.input<typeof ttlChangeInputSchema>;
