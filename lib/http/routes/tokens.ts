import { z } from "zod";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import { listApiTokensVerb } from "@/lib/auth/tokens/list-tokens";
import { revokeApiTokenVerb } from "@/lib/auth/tokens/revoke-token";
import { errorSchema } from "@/lib/validation/common";
import { createTokenSchema, createdTokenSchema, revokeTokenSchema, tokenSchema } from "@/lib/validation/tokens";
import { allowed } from "../access";
import { ok, type Route } from "../types";

const revokeBodySchema = revokeTokenSchema.pick({ reason: true });

/** API token management; admins only, each change audited with it. */
export const tokenRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/tokens",
    access: allowed("admin"),
    doc: {
      summary: "List API tokens (never their secrets); query includeRevoked=true to see revoked ones. Admin only",
      tags: ["access"],
      responses: { 200: z.object({ tokens: z.array(tokenSchema) }), 401: errorSchema, 403: errorSchema },
    },
    handler: async (ctx) => {
      const includeRevoked = ctx.url.searchParams.get("includeRevoked") === "true";
      return ok({ tokens: await listApiTokensVerb({ db: (await ctx.store()).db, actor: ctx.actor, includeRevoked }) });
    },
  },
  {
    method: "POST",
    path: "/api/v1/tokens",
    access: allowed("admin"),
    doc: {
      summary: "Create an API token scoped to services, consumer groups and idempotency scopes; the secret is returned once. Admin only, audited",
      tags: ["access"],
      request: createTokenSchema,
      responses: { 201: createdTokenSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 429: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(createTokenSchema);
      return ok(await createApiToken({ db: (await ctx.store()).db, actor: ctx.actor, input }), 201);
    },
  },
  {
    method: "DELETE",
    path: "/api/v1/tokens/:id",
    access: allowed("admin"),
    doc: {
      summary:
        "Revoke an API token: at once on this node, within 10 s on every node. Admin only, audited with the reason given in the body, else in ?reason=, else in an X-Weir-Reason header",
      tags: ["access"],
      request: revokeBodySchema,
      responses: { 200: z.object({ token: tokenSchema }), 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
    },
    handler: async (ctx) => {
      // Many clients cannot send a DELETE with a body, so the reason may also come in the query or a header;
      // none of them is refused like a blank reason: 400 naming the field.
      const text = await ctx.text();
      const body = text.trim() === "" ? {} : await ctx.json(z.object({ reason: z.unknown() }).partial());
      const given = body.reason ?? ctx.url.searchParams.get("reason") ?? ctx.req.headers["x-weir-reason"];
      const { reason } = revokeBodySchema.parse({ reason: given });
      const input = { id: ctx.params[0]!, reason };
      return ok({ token: await revokeApiTokenVerb({ db: (await ctx.store()).db, actor: ctx.actor, input }) });
    },
  },
];
