import { z } from "zod";
import { changeUserRole } from "@/lib/auth/users/set-user-role";
import { createUser } from "@/lib/auth/users/create-user";
import { disableUser } from "@/lib/auth/users/disable-user";
import { listUsersVerb } from "@/lib/auth/users/list-users";
import { resetUserPassword } from "@/lib/auth/users/set-password";
import { errorSchema, textSchema } from "@/lib/validation/common";
import { createUserSchema, disableUserSchema, resetPasswordSchema, setUserRoleSchema } from "@/lib/validation/tokens";
import { everyId } from "../access";
import { ok, type Route } from "../types";
import { pathParam } from "./claims";

// A user id from the path: text the store can hold (a NUL is a 400 naming `id`, never a 500).
const userIdOf = (raw: string | undefined) => pathParam(textSchema(128), "id", raw);

const userSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(["viewer", "operator", "admin"]) });

/** Console users; admins only, each change audited with it. */
export const userRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/users",
    access: everyId("admin"),
    doc: {
      summary: "List console users and their roles. Admin only",
      tags: ["access"],
      responses: {
        200: z.object({ users: z.array(userSchema.extend({ disabled: z.boolean(), createdAt: z.string(), liveTokens: z.number().int().describe("Live API tokens the user created") })) }),
        401: errorSchema,
        403: errorSchema,
      },
    },
    handler: async (ctx) => ok({ users: await listUsersVerb({ db: (await ctx.store()).db, actor: ctx.actor }) }),
  },
  {
    method: "POST",
    path: "/api/v1/users",
    access: everyId("admin"),
    doc: {
      summary: "Create a console user with a password (scrypt-hashed). Admin only, audited",
      tags: ["access"],
      request: createUserSchema,
      responses: { 201: userSchema.extend({ password: z.string().optional().describe("The generated password, when none was sent; shown once") }), 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(createUserSchema);
      return ok(await createUser({ db: (await ctx.store()).db, actor: ctx.actor, input }), 201);
    },
  },
  {
    method: "PUT",
    path: "/api/v1/users/:id/role",
    access: everyId("admin"),
    doc: {
      summary: "Change a user's role and end their sessions; the last admin cannot be demoted. Admin only, audited",
      tags: ["access"],
      request: setUserRoleSchema,
      responses: { 200: userSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(setUserRoleSchema);
      return ok(await changeUserRole({ db: (await ctx.store()).db, actor: ctx.actor, userId: userIdOf(ctx.params[0]), input }));
    },
  },
  {
    method: "POST",
    path: "/api/v1/users/:id/disable",
    access: everyId("admin"),
    doc: {
      summary: "Disable a user: their password is cleared and every session ends; a password reset enables them again. Their API tokens keep working unless `revokeTokens` is true. Not oneself, not the last admin. Admin only, audited",
      tags: ["access"],
      request: disableUserSchema,
      responses: {
        200: userSchema.extend({ disabled: z.boolean(), tokensRevoked: z.number().int().describe("API tokens revoked with the user (revokeTokens)") }),
        400: errorSchema,
        401: errorSchema,
        403: errorSchema,
        404: errorSchema,
        409: errorSchema,
      },
    },
    handler: async (ctx) => {
      const input = await ctx.json(disableUserSchema);
      return ok(await disableUser({ db: (await ctx.store()).db, actor: ctx.actor, userId: userIdOf(ctx.params[0]), input }));
    },
  },
  {
    method: "POST",
    path: "/api/v1/users/:id/password",
    access: everyId("admin"),
    doc: {
      summary: "Reset a user's password (generated and returned once when none is given) and end their sessions; enables a disabled user. Admin only, audited",
      tags: ["access"],
      request: resetPasswordSchema,
      responses: { 200: z.object({ id: z.string(), email: z.string(), password: z.string().optional().describe("The generated password; shown once") }), 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(resetPasswordSchema);
      return ok(await resetUserPassword({ db: (await ctx.store()).db, actor: ctx.actor, userId: userIdOf(ctx.params[0]), input }));
    },
  },
];
