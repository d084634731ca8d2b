import { eraseKeys } from "@/lib/erase/erase-keys";
import { previewErase } from "@/lib/erase/preview-erase";
import { errorSchema } from "@/lib/validation/common";
import { erasePreviewSchema, eraseResultSchema, eraseSchema, eraseSelectionSchema } from "@/lib/validation/erase";
import { setRetention } from "@/lib/erase/set-retention";
import { retentionBodySchema, retentionChangeResultSchema } from "@/lib/validation/erase";
import { scopeIdSchema } from "@/lib/validation/idempotency";
import { serviceIdSchema } from "@/lib/validation/common";
import { allowed, idempotencyScope, service } from "../access";
import { pathParam } from "./claims";
import { ok, type Route } from "../types";

// The subject is in the body: the verbs authorise it with the one `authorize` before reading anything.
export const erasureRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/v1/erasures/preview",
    access: allowed("operate"),
    doc: {
      summary: "What erasing one key, or every key of a service, consumer group or idempotency scope, would remove: rows per table. Reads only",
      tags: ["erasure"],
      request: eraseSelectionSchema,
      responses: { 200: erasePreviewSchema, 400: errorSchema, 403: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(eraseSelectionSchema);
      const { db } = await ctx.store();
      return ok(await previewErase({ db, actor: ctx.actor, input }));
    },
  },
  {
    method: "POST",
    path: "/api/v1/erasures",
    access: allowed("operate"),
    doc: {
      summary:
        "Erase one key, or every key of a subject, everywhere weir keeps it (state, payload history, reset copies, stored responses, journal); " +
        "the audit keeps that it happened (counts, actor, reason, the key's SHA-256), never the data. Confirmed by typing the key or subject; cannot be undone",
      tags: ["erasure"],
      request: eraseSchema,
      responses: { 200: eraseResultSchema, 400: errorSchema, 403: errorSchema, 409: errorSchema, 422: errorSchema, 429: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(eraseSchema);
      const { db } = await ctx.store();
      return ok(await eraseKeys({ db, actor: ctx.actor, input }));
    },
  },

  ...(["service", "scope"] as const).map(
    (kind): Route => ({
      method: "PUT",
      path: kind === "service" ? "/api/v1/services/:id/retention" : "/api/v1/idempotency-scopes/:id/retention",
      access: kind === "service" ? service("operate") : idempotencyScope("operate"),
      doc: {
        summary:
          kind === "service"
            ? "Set or remove the service's payload-history age limit (versions older are removed by the retention job), audited"
            : "Set or remove the scope's stored-response age limit (completed keys whose response is older are removed by the retention job), audited",
        tags: ["erasure"],
        request: retentionBodySchema,
        responses: { 200: retentionChangeResultSchema, 400: errorSchema, 404: errorSchema, 503: errorSchema },
      },
      handler: async (ctx) => {
        const subject = pathParam(kind === "service" ? serviceIdSchema : scopeIdSchema, "id", ctx.params[0]);
        const body = await ctx.json(retentionBodySchema);
        const { db } = await ctx.store();
        return ok(await setRetention({ db, actor: ctx.actor, input: { kind, subject, ...body } }));
      },
    }),
  ),
];
