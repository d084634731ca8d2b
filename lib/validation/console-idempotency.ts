import { z } from "zod";
import { idempotencyKeySchema, scopeIdSchema } from "./idempotency";
import { cursorParam, optionalText, param } from "./console-common";
import { reasonSchema } from "./window";

export const IDEMPOTENCY_PAGE_SIZE = 50;
export const KEY_STATES = ["in_progress", "completed", "expired"] as const;
export type KeyStateFilter = (typeof KEY_STATES)[number];

export const idempotencyBrowseSchema = z.object({
  scope: optionalText(128).pipe(scopeIdSchema.optional()),
  status: z.preprocess(param, z.enum(KEY_STATES).default("in_progress")),
  after: cursorParam,
  before: cursorParam,
});

export const releaseKeySchema = z.object({
  scope: scopeIdSchema,
  key: idempotencyKeySchema,
  /** The attempt the operator saw: a newer attempt (a live retry) is never released. */
  attempt: z.coerce.number().int().min(1),
  reason: reasonSchema,
});
export type ReleaseKeyInput = z.input<typeof releaseKeySchema>;

/** Releasing every stuck key of a scope: the scope id, typed, confirms more than CONFIRM_THRESHOLD keys. */
export const releaseStuckSchema = z.object({
  scope: scopeIdSchema,
  reason: reasonSchema,
  confirmation: z.string().max(200).optional(),
});
export type ReleaseStuckInput = z.input<typeof releaseStuckSchema>;

/** A bulk release's preview: how many keys of the scope are stuck, and the oldest of them. */
export const stuckPreviewSchema = z.object({
  scope: z.string(),
  count: z.number().int(),
  sample: z.array(z.object({ key: z.string(), attempt: z.number().int(), createdAt: z.string(), lockedUntil: z.string() })),
  confirmWord: z.string().nullable().describe("Send it as confirmation when count is above 100"),
});

export const releaseStuckResultSchema = z.object({
  scope: z.string(),
  released: z.number().int(),
  auditId: z.number().int().nullable().describe("null when nothing was stuck"),
});
