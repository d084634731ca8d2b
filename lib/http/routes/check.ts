import { hotDb } from "@/db/client";
import { checkKeys } from "@/lib/dedup/last-seen/check";
import type { CheckCoalescer } from "@/lib/dedup/last-seen/coalescer";
import { hashPayloadSlice } from "@/lib/dedup/last-seen/hash-envelope";
import { revertCheck } from "@/lib/dedup/last-seen/revert";
import { ValidationError } from "@/lib/errors";
import { serviceConfigs, type ServiceConfig } from "@/lib/dedup/last-seen/service-config";
import {
  checkBatchRequestSchema,
  checkBatchResponseSchema,
  checkKeySchema,
  checkRequestSchema,
  checkResponseSchema,
  revertRequestSchema,
  revertResponseSchema,
} from "@/lib/validation/check";
import { errorSchema } from "@/lib/validation/common";
import { parseCheckBatch, parseCheckEnvelope, type CheckEnvelope } from "../check-envelope";
import { fieldOf } from "../respond";
import { allowed } from "../access";
import { originOf } from "../origin";
import { ok, type Route } from "../types";

function keyOf(envelope: CheckEnvelope, prefix: string) {
  const parsed = checkKeySchema.safeParse({ serviceId: envelope.serviceId, messageId: envelope.messageId, ref: envelope.ref });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fieldOf([...(prefix ? [prefix] : []), ...issue.path]) ?? prefix;
  throw new ValidationError(`${field}: ${issue.message}`, field);
}

const filterFor = (serviceId: string) => serviceConfigs.peekFilter(serviceId);

export function checkRoutes(coalescer: CheckCoalescer): Route[] {
  return [
    {
      method: "POST",
      path: "/api/v1/check",
      access: allowed("decide"),
      observe: "last_seen",
      doc: {
        summary: "Last-seen check: new, changed or duplicate, decided atomically with the state change",
        tags: ["check"],
        request: checkRequestSchema,
        responses: {
          200: checkResponseSchema,
          400: errorSchema,
          404: errorSchema.describe("The service is not registered"),
          413: errorSchema.describe("The body is over the size limit (default 1 MiB)"),
        },
      },
      handler: async (ctx) => {
        const text = await ctx.text();
        const envelope = parseCheckEnvelope(text, filterFor);
        const key = keyOf(envelope, "");
        ctx.requireScope("services", key.serviceId);
        // The hot path: no closure, no promise for the cached service settings.
        const db = hotDb(await ctx.store());
        const config = serviceConfigs.fresh(db, key.serviceId) ?? (await serviceConfigs.require(db, key.serviceId));
        const item = hashPayloadSlice(config, key.messageId, text, envelope);
        item.origin = originOf(ctx);
        item.ref = key.ref ?? null;
        return ok(await coalescer.submit(item));
      },
    },
    {
      method: "POST",
      path: "/api/v1/check/batch",
      access: allowed("decide"),
      observe: "last_seen",
      doc: {
        summary: "Up to 1000 checks in one request; items sharing a key are decided in their order",
        tags: ["check"],
        request: checkBatchRequestSchema,
        responses: { 200: checkBatchResponseSchema, 400: errorSchema, 404: errorSchema, 413: errorSchema },
      },
      handler: async (ctx) => {
        const text = await ctx.text();
        const envelopes = parseCheckBatch(text, filterFor);
        const keys = envelopes.map((envelope, i) => keyOf(envelope, `items[${i}]`));
        for (const key of keys) ctx.requireScope("services", key.serviceId);
        const db = hotDb(await ctx.store());
        const origin = originOf(ctx);
        const hash = (config: ServiceConfig, key: (typeof keys)[number], i: number) => {
          const item = hashPayloadSlice(config, key.messageId, text, envelopes[i]!);
          item.origin = origin;
          item.ref = key.ref ?? null;
          return item;
        };
        return ok({ results: await checkKeys(db, keys, hash, (i) => `items[${i}].serviceId`) });
      },
    },
    {
      method: "POST",
      path: "/api/v1/check/revert",
      access: allowed("decide"),
      doc: {
        summary:
          "Take back a check's new or changed after the side effect failed: the previous hash and version are stored again " +
          "(a new leaves no state), only while the key is still at `version`; audited",
        tags: ["check"],
        request: revertRequestSchema,
        responses: {
          200: revertResponseSchema,
          400: errorSchema,
          404: errorSchema.describe("The service is not registered, or the key has no state"),
          409: errorSchema.describe("The key is at another version (error.version), or the hash before this version is not kept"),
          429: errorSchema.describe("The credential spent its revert budget (WEIR_REVERT_LIMIT per 10 min): each revert is audited"),
          503: errorSchema,
        },
      },
      handler: async (ctx) => {
        const input = await ctx.json(revertRequestSchema);
        ctx.requireScope("services", input.serviceId);
        const db = hotDb(await ctx.store());
        return ok(await revertCheck({ db, actor: ctx.actor, input, origin: originOf(ctx) }));
      },
    },
  ];
}
