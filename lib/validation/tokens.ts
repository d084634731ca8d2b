import { z } from "zod";
import { textSchema } from "./common";
import { reasonSchema } from "./window";

/** A scope entry: an id (services, consumer groups and idempotency scopes share the id alphabet) or "*". */
const scopeEntry = z.string().regex(/^(\*|[A-Za-z0-9][A-Za-z0-9._:-]{0,127})$/, 'an id, or "*" for all');
const scopeList = z.array(scopeEntry).max(200).default([]);

/** A reason that may be left out (token and user changes), for the audit log. */
export const optionalReasonSchema = textSchema(500, { trim: true }).optional();

export const tokenRoleSchema = z.enum(["service", "viewer", "operator", "admin"]);

export const createTokenSchema = z.object({
  name: textSchema(100, { min: 1, trim: true }),
  role: tokenRoleSchema.default("service"),
  services: scopeList,
  consumerGroups: scopeList,
  idempotencyScopes: scopeList,
  expiresInDays: z.number().int().min(1).max(3650).optional(),
  maxInFlight: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe("Requests this token may have in flight on each node (also its idempotency waiters); default: a share of the node's limit"),
  requestsPerSecond: z.number().int().min(1).max(1_000_000).optional().describe("Requests per second this token may send to each node; default: unlimited"),
  reason: optionalReasonSchema,
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;

/** Revoking is destructive: like every such operation, it is audited with why. */
export const revokeTokenSchema = z.object({
  id: z.string().regex(/^tok_[A-Za-z0-9_-]{8,64}$/),
  reason: reasonSchema,
});
export type RevokeTokenInput = z.input<typeof revokeTokenSchema>;

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: tokenRoleSchema,
  prefix: z.string().describe("The first characters of the token"),
  services: z.array(z.string()),
  consumerGroups: z.array(z.string()),
  idempotencyScopes: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe("Updated at most once a minute"),
  maxInFlight: z.number().int().nullable().describe("Its own limit of requests in flight per node; null: the default share"),
  requestsPerSecond: z.number().int().nullable().describe("Its own requests per second per node; null: unlimited"),
});

export const createdTokenSchema = z.object({
  token: z.string().describe("The secret; shown once, never stored"),
  details: tokenSchema,
});

export const createUserSchema = z.object({
  email: z.email().max(320).transform((e) => e.toLowerCase()),
  name: textSchema(200, { min: 1, trim: true }).optional(),
  password: z.string().min(12, "at least 12 characters").max(256).optional().describe("Left out: a strong one is generated and returned once"),
  role: z.enum(["viewer", "operator", "admin"]).default("viewer"),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

export const setUserRoleSchema = z.object({
  role: z.enum(["viewer", "operator", "admin"]),
  reason: optionalReasonSchema,
});

/**
 * Disabling a user ends their sessions and clears their password; a password reset enables them again.
 * Their API tokens are service credentials and keep working unless `revokeTokens` says otherwise.
 */
export const disableUserSchema = z.object({
  reason: reasonSchema,
  revokeTokens: z.boolean().default(false).describe("Also revoke every live API token the user created (they keep working otherwise)"),
});
export type DisableUserInput = z.input<typeof disableUserSchema>;

/** A reset without a password generates one, shown once. */
export const resetPasswordSchema = z.object({
  password: z.string().min(12, "at least 12 characters").max(256).optional(),
  reason: reasonSchema,
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
