import { hotDb } from "@/db/client";
import { beginWaiting } from "@/lib/dedup/idempotency/begin-waiting";
import { complete } from "@/lib/dedup/idempotency/complete";
import { deleteCompletedKey } from "@/lib/dedup/idempotency/delete-key";
import { KeyInProgressError } from "@/lib/dedup/idempotency/in-progress-error";
import { readKeyState } from "@/lib/dedup/idempotency/key-state";
import { release } from "@/lib/dedup/idempotency/release";
import { changeScopeSettings, findIdempotencyScope } from "@/lib/dedup/idempotency/scopes";
import { NotFoundError, UnprocessableError } from "@/lib/errors";
import { errorSchema } from "@/lib/validation/common";
import {
  beginCompletedSchema,
  beginRequestSchema,
  beginStartedSchema,
  completeRequestSchema,
  completeResponseSchema,
  deleteKeyResponseSchema,
  deleteKeySchema,
  idempotencyKeySchema,
  inProgressErrorSchema,
  keyStateSchema,
  mismatchErrorSchema,
  putScopeResponseSchema,
  putScopeSchema,
  releaseRequestSchema,
  releaseResponseSchema,
  scopeIdSchema,
  scopeSchema,
} from "@/lib/validation/idempotency";
import { idempotencyScope } from "../access";
import { originOf } from "../origin";
import { ok, type Route } from "../types";
import { pathParam } from "./claims";
import { keyStateBody, requestHashOf, scopeBody, untilHangUp } from "./idempotency-bodies";

export const idempotencyRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/v1/idempotency/:scope/begin",
    access: idempotencyScope("decide"),
    observe: "idempotency_begin",
    doc: {
      summary:
        "Begin the work behind an idempotency key: 201 started, 200 stored response, 409 in progress (with Retry-After), 422 mismatch; " +
        "waitSeconds waits for an in-flight key's result instead of 409",
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
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const input = await ctx.json(beginRequestSchema);
      const requestHash = await requestHashOf(ctx, input);
      const store = await ctx.store();
      const ref = { scope, key: input.key, requestHash };
      const callerRef = input.ref === undefined ? {} : { ref: input.ref };
      const wait = input.waitSeconds ?? 0;
      const holder = { id: ctx.actor.id, share: ctx.actor.limits?.maxInFlight };
      if (wait > 0) ctx.waiting();
      const result = await untilHangUp(ctx, (signal) => beginWaiting(store, { ...ref, ...callerRef, origin: originOf(ctx) }, wait, signal, holder));
      switch (result.outcome) {
        case "started":
          return ok({ outcome: "started", ...ref, attempt: result.attempt, lockedUntil: result.lockedUntil.toISOString() }, 201);
        case "completed":
          return ok({
            outcome: "completed",
            ...ref,
            response: result.response,
            attempt: result.attempt,
            completedAt: result.completedAt.toISOString(),
            firstRef: result.firstRef,
          });
        case "in_progress":
          throw new KeyInProgressError(input.key, result, result.waited);
        case "mismatch":
          throw new UnprocessableError("the idempotency key was used for a different request", "mismatch", {
            storedHash: result.storedHash,
            requestHash: result.requestHash,
            firstRef: result.firstRef,
          });
      }
    },
  },
  {
    method: "POST",
    path: "/api/v1/idempotency/:scope/complete",
    access: idempotencyScope("decide"),
    doc: {
      summary: "Store the response of a started key; later begins replay it verbatim. attempt is required: a stale attempt gets 409",
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
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const input = await ctx.json(completeRequestSchema);
      const requestHash = await requestHashOf(ctx, input);
      const db = hotDb(await ctx.store());
      const result = await complete(db, { scope, key: input.key, requestHash, attempt: input.attempt, response: input.response, origin: originOf(ctx) });
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
    access: idempotencyScope("release"),
    observe: "idempotency_release",
    doc: {
      summary: "Give a started key back after the work failed, so that a retry (or a waiting caller) can begin it. attempt is required",
      tags: ["idempotency"],
      request: releaseRequestSchema,
      responses: { 200: releaseResponseSchema, 400: errorSchema, 409: errorSchema, 422: mismatchErrorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const input = await ctx.json(releaseRequestSchema);
      const db = hotDb(await ctx.store());
      const result = await release(db, { scope, ...input, origin: originOf(ctx) });
      return ok({ scope, key: input.key, released: result.released });
    },
  },
  {
    method: "GET",
    path: "/api/v1/idempotency/:scope/:key",
    access: idempotencyScope("read"),
    doc: {
      summary: "A key's state: status, attempt, lock, expiry, request hash and stored response; 404 when absent or expired",
      tags: ["idempotency"],
      responses: { 200: keyStateSchema, 400: errorSchema, 404: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const key = pathParam(idempotencyKeySchema, "key", ctx.params[1]);
      const db = hotDb(await ctx.store());
      const state = await readKeyState(db, scope, key);
      if (!state) throw new NotFoundError(`idempotency key ${key} is not stored in scope ${scope} (never begun, released or expired)`, "key");
      return ok(keyStateBody(state));
    },
  },
  {
    method: "DELETE",
    path: "/api/v1/idempotency/:scope/:key",
    access: idempotencyScope("operate"),
    doc: {
      summary:
        "Forget a completed key's response so that the next begin (of any request) runs the work again as the next attempt, " +
        "audited with the reason; 409 while in progress",
      tags: ["idempotency"],
      request: deleteKeySchema,
      responses: { 200: deleteKeyResponseSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const scope = pathParam(scopeIdSchema, "scope", ctx.params[0]);
      const key = pathParam(idempotencyKeySchema, "key", ctx.params[1]);
      const input = await ctx.json(deleteKeySchema);
      const { db } = await ctx.store();
      const result = await deleteCompletedKey({ db, actor: ctx.actor, input: { scope, key, reason: input.reason } });
      return ok({ scope, key, deleted: true, attempt: result.attempt, completedAt: result.completedAt.toISOString() });
    },
  },
  {
    method: "GET",
    path: "/api/v1/idempotency-scopes/:id",
    access: idempotencyScope("read"),
    doc: {
      summary: "Lock and retention settings of an idempotency scope",
      tags: ["idempotency"],
      responses: { 200: scopeSchema, 400: errorSchema, 404: errorSchema, 503: errorSchema },
    },
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
    access: idempotencyScope("operate"),
    doc: {
      summary: "Create or change an idempotency scope's lock and retention (applies to keys written afterwards), audited",
      tags: ["idempotency"],
      request: putScopeSchema,
      responses: { 200: putScopeResponseSchema, 201: putScopeResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(scopeIdSchema, "id", ctx.params[0]);
      const input = await ctx.json(putScopeSchema);
      const { db } = await ctx.store();
      const result = await changeScopeSettings({ db, actor: ctx.actor, input: { ...input, scope: id } });
      return ok({ scope: scopeBody(result.scope), created: result.created, changed: result.changed }, result.created ? 201 : 200);
    },
  },
];
