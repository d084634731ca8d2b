import { hotDb } from "@/db/client";
import { previewStuckKeys, releaseStuck } from "@/lib/dedup/idempotency/release-stuck";
import { errorSchema } from "@/lib/validation/common";
import { releaseStuckResultSchema, releaseStuckSchema, stuckPreviewSchema } from "@/lib/validation/console-idempotency";
import { idempotencyScope } from "../access";
import { ok, type Route } from "../types";

/** Operator actions over many keys of one scope (the console's bulk release). */
export const idempotencyBulkRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/idempotency-scopes/:id/stuck",
    access: idempotencyScope("operate"),
    doc: {
      summary: "Preview of a bulk release: how many keys of the scope are stuck (in progress, lock run out) and the oldest of them",
      tags: ["idempotency"],
      responses: { 200: stuckPreviewSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => ok(await previewStuckKeys({ db: (await ctx.store()).db, actor: ctx.actor, scope: ctx.params[0]! })),
  },
  {
    method: "POST",
    path: "/api/v1/idempotency-scopes/:id/release-stuck",
    access: idempotencyScope("operate"),
    doc: {
      summary:
        "Release every stuck key of the scope, so retries start them again (none stuck: released 0, not audited); above 100 keys the scope id must be sent as confirmation. " +
        "Audited with the reason; no undo",
      tags: ["idempotency"],
      request: releaseStuckSchema.omit({ scope: true }),
      responses: { 200: releaseStuckResultSchema, 400: errorSchema, 422: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(releaseStuckSchema.omit({ scope: true }));
      const store = await ctx.store();
      return ok(await releaseStuck({ db: store.db, notifyDb: hotDb(store), actor: ctx.actor, input: { ...input, scope: ctx.params[0]! } }));
    },
  },
];
