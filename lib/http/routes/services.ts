import { z } from "zod";
import { saveService } from "@/lib/services/save-service";
import { getKeyDetail, getService, getServices } from "@/lib/services/read-services";
import { errorSchema } from "@/lib/validation/common";
import { keyDetailSchema, serviceSchema, serviceSettingsSchema } from "@/lib/validation/services";
import { explainRequestSchema, explanationSchema } from "@/lib/validation/console-explain";
import { explainCheck } from "@/lib/views/explain";
import { filterAuthorized } from "@/lib/auth/authorize";
import { allowed, service } from "../access";
import { ok, type Route } from "../types";

export const serviceRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/services",
    access: allowed("read"),
    doc: { summary: "List services", tags: ["services"], responses: { 200: z.object({ services: z.array(serviceSchema) }) } },
    // A scoped token lists only its own services.
    handler: async (ctx) => ok({ services: filterAuthorized(ctx.actor, "read", await getServices((await ctx.store()).db), (s) => ({ kind: "services", id: s.id })) }),
  },
  {
    method: "GET",
    path: "/api/v1/services/:id",
    access: service("read"),
    doc: { summary: "Get a service", tags: ["services"], responses: { 200: serviceSchema, 404: errorSchema } },
    handler: async (ctx) => ok(await getService((await ctx.store()).db, ctx.params[0]!)),
  },
  {
    method: "PUT",
    path: "/api/v1/services/:id",
    access: service("admin"),
    doc: {
      summary: "Register a service or replace its settings (audited)",
      tags: ["services"],
      request: serviceSettingsSchema,
      responses: { 200: serviceSchema, 201: serviceSchema, 400: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(serviceSettingsSchema);
      const { db } = await ctx.store();
      const { service, created } = await saveService({ db, actor: ctx.actor, id: ctx.params[0]!, input });
      return ok((await getService(db, service.id)), created ? 201 : 200);
    },
  },
  {
    method: "POST",
    path: "/api/v1/services/:id/explain",
    access: service("read"),
    doc: {
      summary: "What check would answer for a payload now, and its canonical form after the service's filter and normalisation (writes nothing)",
      tags: ["services"],
      request: explainRequestSchema,
      responses: { 200: explanationSchema, 400: errorSchema, 404: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(explainRequestSchema);
      const { db } = await ctx.store();
      return ok(await explainCheck({ db, actor: ctx.actor, input: { ...input, serviceId: ctx.params[0]! } }));
    },
  },
  {
    method: "GET",
    path: "/api/v1/services/:id/keys/:messageId",
    access: service("read"),
    doc: {
      summary: "Stored state and kept payload versions of one key",
      tags: ["services"],
      responses: { 200: keyDetailSchema, 404: errorSchema },
    },
    handler: async (ctx) => ok(await getKeyDetail((await ctx.store()).db, ctx.params[0]!, ctx.params[1]!)),
  },
];
