import { begin } from "@/lib/dedup/idempotency/begin";
import { complete } from "@/lib/dedup/idempotency/complete";
import { release } from "@/lib/dedup/idempotency/release";
import { hashOfMember } from "@/lib/dedup/idempotency/request-hash";
import { findIdempotencyScope, setScopeSettings, type IdempotencyScopeRow } from "@/lib/dedup/idempotency/scopes";
import { ConflictError, NotFoundError, UnprocessableError } from "@/lib/errors";
import { errorSchema } from "@/lib/validation/common";
import {
  beginCompletedSchema,
  beginRequestSchema,
  beginStartedSchema,
  completeRequestSchema,
  completeResponseSchema,
  inProgressErrorSchema,
  mismatchErrorSchema,
  putScopeResponseSchema,
  putScopeSchema,
  releaseRequestSchema,
  releaseResponseSchema,
  scopeIdSchema,
  scopeSchema,
} from "@/lib/validation/idempotency";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import type { ApiDoc } from "../api-doc";
import { ok, type ApiContext, type Route } from "../types";
import { pathParam } from "./claims";

/** The request hash given, or the exact structural hash of the `request` member of the body. */
async function requestHashOf(ctx: ApiContext, input: { requestHash?: string; request?: unknown }): Promise<string> {
  if (input.requestHash !== undefined) return input.requestHash;
  const hash = hashOfMember(await ctx.text(), "request");
  if (hash === undefined) throw new Error("the validated body has no request member");
  return hash;
}

function scopeBody(scope: IdempotencyScopeRow) {
  return {
    id: scope.id,
    lockSeconds: scope.lockSeconds,
    retentionSeconds: scope.retentionSeconds,
    createdAt: scope.createdAt.toISOString(),
    updatedAt: scope.updatedAt.toISOString(),
  };
}

export const idempotencyRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/v1/idempotency/:scope/begin",
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const input = await ctx.json(beginRequestSchema);
      const requestHash = await requestHashOf(ctx, input);
      const { db } = await ctx.store();
      const result = await begin(db, { scope, key: input.key, requestHash });
      const ref = { scope, key: input.key, requestHash };
      switch (result.outcome) {
        case "started":
          return ok({ outcome: "started", ...ref, attempt: result.attempt, lockedUntil: result.lockedUntil.toISOString() }, 201);
        case "completed":
          return ok({ outcome: "completed", ...ref, response: result.response, completedAt: result.completedAt.toISOString() });
        case "in_progress":
          throw new ConflictError(`idempotency key ${input.key} is in progress; retry after the lock expires`, "in_progress", {
            attempt: result.attempt,
            lockedUntil: result.lockedUntil.toISOString(),
          });
        case "mismatch":
          throw new UnprocessableError("the idempotency key was used for a different request", "mismatch", {
            storedHash: result.storedHash,
            requestHash: result.requestHash,
          });
      }
    },
  },
  {
    method: "POST",
    path: "/api/v1/idempotency/:scope/complete",
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const input = await ctx.json(completeRequestSchema);
      const requestHash = await requestHashOf(ctx, input);
      const { db } = await ctx.store();
      const result = await complete(db, { scope, key: input.key, requestHash, attempt: input.attempt, response: input.response });
      return ok({
        scope,
        key: input.key,
        attempt: result.attempt,
        completedAt: result.completedAt.toISOString(),
        expiresAt: result.expiresAt.toISOString(),
        alreadyCompleted: result.alreadyCompleted,
      });
    },
  },
  {
    method: "POST",
    path: "/api/v1/idempotency/:scope/release",
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const input = await ctx.json(releaseRequestSchema);
      const { db } = await ctx.store();
      const result = await release(db, { scope, ...input });
      return ok({ scope, key: input.key, released: result.released });
    },
  },
  {
    method: "GET",
    path: "/api/v1/idempotency-scopes/:id",
    handler: async (ctx) => {
      const id = pathParam(scopeIdSchema, "id", ctx.params[0]);
      const { db } = await ctx.store();
      const scope = await findIdempotencyScope(db, id);
      if (!scope) throw new NotFoundError(`idempotency scope ${id} has no settings; it uses the defaults`, "id");
      return ok(scopeBody(scope));
    },
  },
  {
    method: "PUT",
    path: "/api/v1/idempotency-scopes/:id",
    handler: async (ctx) => {
      const id = pathParam(scopeIdSchema, "id", ctx.params[0]);
      const input = await ctx.json(putScopeSchema);
      const { db } = await ctx.store();
      await guardDestructive(ctx.actor, db);
      const result = await setScopeSettings(db, {
        scope: id,
        lockSeconds: input.lockSeconds,
        retentionSeconds: input.retentionSeconds,
        reason: input.reason ?? null,
        actor: ctx.actor,
      });
      return ok({ scope: scopeBody(result.scope), created: result.created, changed: result.changed }, result.created ? 201 : 200);
    },
  },
];

export const idempotencyDocs: ApiDoc[] = [
  {
    method: "POST",
    path: "/api/v1/idempotency/{scope}/begin",
    summary: "Begin the work behind an idempotency key: 201 started, 200 stored response, 409 in progress, 422 mismatch",
    tags: ["idempotency"],
    request: beginRequestSchema,
    responses: {
      200: beginCompletedSchema,
      201: beginStartedSchema,
      400: errorSchema,
      409: inProgressErrorSchema,
      422: mismatchErrorSchema,
      503: errorSchema,
    },
  },
  {
    method: "POST",
    path: "/api/v1/idempotency/{scope}/complete",
    summary: "Store the response of a started key; later begins replay it verbatim",
    tags: ["idempotency"],
    request: completeRequestSchema,
    responses: {
      200: completeResponseSchema,
      400: errorSchema,
      404: errorSchema,
      409: errorSchema,
      422: mismatchErrorSchema,
      503: errorSchema,
    },
  },
  {
    method: "POST",
    path: "/api/v1/idempotency/{scope}/release",
    summary: "Give a started key back after the work failed, so that a retry can begin it again",
    tags: ["idempotency"],
    request: releaseRequestSchema,
    responses: { 200: releaseResponseSchema, 400: errorSchema, 409: errorSchema, 422: mismatchErrorSchema, 503: errorSchema },
  },
  {
    method: "GET",
    path: "/api/v1/idempotency-scopes/{id}",
    summary: "Lock and retention settings of an idempotency scope",
    tags: ["idempotency"],
    responses: { 200: scopeSchema, 400: errorSchema, 404: errorSchema, 503: errorSchema },
  },
  {
    method: "PUT",
    path: "/api/v1/idempotency-scopes/{id}",
    summary: "Create or change an idempotency scope's lock and retention (applies to keys written afterwards), audited",
    tags: ["idempotency"],
    request: putScopeSchema,
    responses: { 200: putScopeResponseSchema, 201: putScopeResponseSchema, 400: errorSchema, 503: errorSchema },
  },
];
