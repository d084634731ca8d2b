import { eraseKeys } from "@/lib/erase/erase-keys";
import { previewErase } from "@/lib/erase/preview-erase";
import { errorSchema } from "@/lib/validation/common";
import { erasePreviewSchema, eraseResultSchema, eraseSchema, eraseSelectionSchema } from "@/lib/validation/erase";
import { allowed } from "../access";
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
];
