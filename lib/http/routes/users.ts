import { z } from "zod";
import { changeUserRole } from "@/lib/auth/users/set-user-role";
import { createUser } from "@/lib/auth/users/create-user";
import { listUsersVerb } from "@/lib/auth/users/list-users";
import { errorSchema } from "@/lib/validation/common";
import { createUserSchema, setUserRoleSchema } from "@/lib/validation/tokens";
import { everyId } from "../access";
import { ok, type Route } from "../types";

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
      responses: { 200: z.object({ users: z.array(userSchema.extend({ createdAt: z.string() })) }), 401: errorSchema, 403: errorSchema },
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
      responses: { 201: userSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
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
      return ok(await changeUserRole({ db: (await ctx.store()).db, actor: ctx.actor, userId: ctx.params[0]!, input }));
    },
  },
];
