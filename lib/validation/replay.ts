import { z } from "zod";
import { serviceIdSchema, textSchema } from "./common";
import { instantSchema } from "./console-common";

const natsName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,255}$/, "1-255 letters, digits, '_' or '-'")
  .describe("A JetStream stream name");

/** Where a message's id lives: the Nats-Msg-Id header, another header, or a JSON pointer into the payload. */
export const idLocationSchema = z
  .object({
    header: textSchema(128).optional().describe("A header name (Nats-Msg-Id, idempotency-key, ...)"),
    path: z
      .string()
      // Every "/" opens a segment, so any text that starts with one is a JSON pointer.
      .startsWith("/", "a JSON pointer such as /orderId")
      .max(512)
      .optional()
      .describe("A JSON pointer into the payload"),
  })
  .refine((v) => (v.header === undefined) !== (v.path === undefined), { message: "give a header or a payload path, not both", path: ["header"] });

/** A JetStream range to reset before replaying it: by stream sequence or by time, and where each message's id lives. */
export const replayRangeSchema = z
  .object({
    kind: z.enum(["last_seen", "window"]),
    subject: serviceIdSchema.describe("The service (last_seen) or consumer group (window) whose keys the replay will meet"),
    stream: natsName,
    fromSeq: z.coerce.number().int().min(1).optional(),
    toSeq: z.coerce.number().int().min(1).optional(),
    from: instantSchema,
    to: instantSchema,
    idFrom: idLocationSchema,
  })
  .superRefine((v, ctx) => {
    const bySeq = v.fromSeq !== undefined || v.toSeq !== undefined;
    const byTime = v.from !== undefined || v.to !== undefined;
    if (bySeq === byTime) ctx.addIssue({ code: "custom", path: ["fromSeq"], message: "give a sequence range (fromSeq, toSeq) or a time range (from, to)" });
    if (bySeq && (v.fromSeq === undefined || v.toSeq === undefined)) ctx.addIssue({ code: "custom", path: ["toSeq"], message: "give both fromSeq and toSeq" });
    if (bySeq && v.fromSeq !== undefined && v.toSeq !== undefined && v.toSeq < v.fromSeq) ctx.addIssue({ code: "custom", path: ["toSeq"], message: "must not be before fromSeq" });
    if (byTime && (!v.from || !v.to)) ctx.addIssue({ code: "custom", path: ["to"], message: "give both from and to" });
    if (byTime && v.from && v.to && v.from >= v.to) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after the start" });
  });
export type ReplayRangeInput = z.input<typeof replayRangeSchema>;
export type ReplayRange = z.output<typeof replayRangeSchema>;
