import { z } from "zod";
import { messageIdSchema, serviceIdSchema } from "./common";
import { cursorParam, instantSchema, optionalInt, optionalText, param } from "./console-common";

export const KEY_PAGE_SIZE = 50;

/** Key browser filters, as they appear in the URL. */
export const keyBrowserQuerySchema = z
  .object({
    prefix: optionalText(512),
    from: instantSchema,
    to: instantSchema,
    minVersion: optionalInt(1, Number.MAX_SAFE_INTEGER),
    sort: z.preprocess(param, z.enum(["desc", "asc"]).default("desc")),
    after: cursorParam,
    before: cursorParam,
  })
  .refine((q) => !q.from || !q.to || q.from < q.to, { message: "must be after the start", path: ["to"] });
export type KeyBrowserQuery = z.output<typeof keyBrowserQuerySchema>;

export const keyRefSchema = z.object({
  serviceId: serviceIdSchema,
  messageId: z.preprocess(param, messageIdSchema),
});
