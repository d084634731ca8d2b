import { defaultTtlSeconds } from "@/lib/dedup/window/default-ttl";
import {
  effectiveGraceSeconds,
  listConsumerGroups,
  listTtlChanges,
  type ConsumerGroupRow,
  type TtlChangeRow,
} from "@/lib/dedup/window/groups";
import { changeGroupSettings, previewGroupSettings } from "@/lib/dedup/window/change-group-settings";
import { errorSchema } from "@/lib/validation/common";
import {
  consumerGroupIdSchema,
  consumerGroupListSchema,
  putConsumerGroupResponseSchema,
  putConsumerGroupSchema,
  ttlChangesQuerySchema,
  ttlChangesResponseSchema,
  ttlPreviewRequestSchema,
  ttlPreviewResponseSchema,
} from "@/lib/validation/window";
import { filterAuthorized } from "@/lib/auth/authorize";
import { allowed, group } from "../access";
import { ok, type Route } from "../types";
import { pathParam } from "./claims";

export function groupBody(group: ConsumerGroupRow) {
  return {
    id: group.id,
    ttlSeconds: group.ttlSeconds,
    graceSeconds: group.graceSeconds,
    effectiveGraceSeconds: effectiveGraceSeconds(group),
    slide: group.slide,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

export function ttlChangeBody(change: TtlChangeRow) {
  return { ...change, at: change.at.toISOString() };
}

export const consumerGroupRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/v1/consumer-groups",
    access: allowed("read"),
    doc: {
      summary: "List consumer groups with their TTL windows",
      tags: ["window"],
      responses: { 200: consumerGroupListSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const { db } = await ctx.store();
      const groups = filterAuthorized(ctx.actor, "read", await listConsumerGroups(db), (g) => ({ kind: "consumerGroups", id: g.id }));
      return ok({ defaultTtlSeconds: defaultTtlSeconds(), groups: groups.map(groupBody) });
    },
  },
  {
    method: "PUT",
    path: "/api/v1/consumer-groups/:id",
    access: group("operate"),
    doc: {
      summary: "Create a consumer group or change its TTL/grace/sliding window; applies to existing records at once, audited",
      tags: ["window"],
      request: putConsumerGroupSchema,
      responses: { 200: putConsumerGroupResponseSchema, 201: putConsumerGroupResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(consumerGroupIdSchema, "id", ctx.params[0]);
      const input = await ctx.json(putConsumerGroupSchema);
      const { db } = await ctx.store();
      const result = await changeGroupSettings({ db, actor: ctx.actor, input: { ...input, consumerGroup: id } });
      const body = {
        group: groupBody(result.group),
        created: result.created,
        change: result.change ? ttlChangeBody(result.change) : null,
      };
      return ok(body, result.created ? 201 : 200);
    },
  },
  {
    method: "POST",
    path: "/api/v1/consumer-groups/:id/ttl-preview",
    access: group("read"),
    doc: {
      summary: "What a TTL change would do to stored records, without saving it",
      tags: ["window"],
      request: ttlPreviewRequestSchema,
      responses: { 200: ttlPreviewResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(consumerGroupIdSchema, "id", ctx.params[0]);
      const { ttlSeconds } = await ctx.json(ttlPreviewRequestSchema);
      const { db } = await ctx.store();
      return ok(await previewGroupSettings({ db, actor: ctx.actor, input: { consumerGroup: id, ttlSeconds } }));
    },
  },
  {
    method: "GET",
    path: "/api/v1/consumer-groups/:id/ttl-changes",
    access: group("read"),
    doc: {
      summary: "History of a consumer group's TTL changes, newest first; query: limit (1-500, default 50), before (id)",
      tags: ["window"],
      responses: { 200: ttlChangesResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const id = pathParam(consumerGroupIdSchema, "id", ctx.params[0]);
      const query = ttlChangesQuerySchema.parse(Object.fromEntries(ctx.url.searchParams));
      const { db } = await ctx.store();
      const changes = await listTtlChanges(db, id, { limit: query.limit, beforeId: query.before });
      const last = changes.at(-1);
      return ok({
        changes: changes.map(ttlChangeBody),
        nextBefore: changes.length === query.limit && last ? last.id : null,
      });
    },
  },
];
