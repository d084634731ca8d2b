import { z } from "zod";
import { CONFIRM_THRESHOLD, MAX_LIST_IDS } from "../reset/constants";
import { messageIdSchema, serviceIdSchema, textSchema } from "./common";
import { instantSchema, param } from "./console-common";
import { reasonSchema } from "./window";

export { CONFIRM_THRESHOLD };

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(param, schema.optional());

/** One id per line; blank lines and surrounding spaces are dropped, repeats counted once. */
export function parseIdList(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0))];
}

/** What to reset, as the form, the action and the verb see it. */
export const resetSelectionSchema = z
  .object({
    kind: z.enum(["last_seen", "window"]),
    subject: serviceIdSchema,
    mode: z.enum(["key", "list", "filter"]),
    messageId: optional(messageIdSchema),
    messageIds: optional(textSchema(6_000_000)),
    prefix: optional(textSchema(512)),
    from: instantSchema,
    to: instantSchema,
  })
  .superRefine((v, ctx) => {
    if (v.mode === "key" && !v.messageId) ctx.addIssue({ code: "custom", path: ["messageId"], message: "give the message id" });
    if (v.mode === "list") {
      const ids = parseIdList(v.messageIds ?? "");
      if (ids.length === 0) ctx.addIssue({ code: "custom", path: ["messageIds"], message: "give at least one message id" });
      if (ids.length > MAX_LIST_IDS) {
        ctx.addIssue({ code: "custom", path: ["messageIds"], message: `at most ${MAX_LIST_IDS} ids; use a filter for more` });
      }
      const bad = ids.find((id) => !messageIdSchema.safeParse(id).success);
      if (bad !== undefined) ctx.addIssue({ code: "custom", path: ["messageIds"], message: `not a valid message id: ${bad.slice(0, 60)}` });
    }
    if (v.mode === "filter" && v.from && v.to && v.from >= v.to) {
      ctx.addIssue({ code: "custom", path: ["to"], message: "must be after the start" });
    }
  })
  .transform((v) => ({
    kind: v.kind,
    subject: v.subject,
    mode: v.mode,
    messageIds: v.mode === "key" ? [v.messageId!] : v.mode === "list" ? parseIdList(v.messageIds ?? "") : undefined,
    prefix: v.mode === "filter" ? v.prefix : undefined,
    from: v.mode === "filter" ? v.from : undefined,
    to: v.mode === "filter" ? v.to : undefined,
  }));
export type ResetSelectionInput = z.input<typeof resetSelectionSchema>;

export const startResetSchema = z.object({
  selection: resetSelectionSchema,
  reason: reasonSchema,
  /** The service or group id, typed, when the reset is larger than the threshold. */
  confirmation: textSchema(200).optional(),
});
export type StartResetInput = z.input<typeof startResetSchema>;

export const batchIdSchema = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const undoResetSchema = z.object({ batchId: batchIdSchema, reason: reasonSchema });
export type UndoResetInput = z.input<typeof undoResetSchema>;
