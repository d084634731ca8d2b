import { hotDb } from "@/db/client";
import { z, type ZodType } from "zod";
import type { DbOrTx } from "@/db/types";
import { claimMany } from "@/lib/dedup/window/claim";
import { coalescerOptionsFromEnv } from "@/lib/dedup/coalescer";
import { ClaimCoalescer } from "@/lib/dedup/window/claim-coalescer";
import { releaseClaim } from "@/lib/dedup/window/release";
import { errorSchema } from "@/lib/validation/common";
import {
  claimBatchRequestSchema,
  claimBatchResponseSchema,
  claimReleaseRequestSchema,
  claimReleaseResponseSchema,
  claimRequestSchema,
  claimResponseSchema,
} from "@/lib/validation/window";
import { allowed } from "../access";
import { originOf } from "../origin";
import { ok, type Route } from "../types";

/** Validates a path parameter so that a bad one is a 400 naming the parameter. */
export function pathParam<T>(schema: ZodType<T>, name: string, value: string | undefined): T {
  return z.object({ [name]: schema }).parse({ [name]: value })[name] as T;
}

// One coalescer per store handle: a store reopened after an outage gets a fresh one.
const coalescers = new WeakMap<DbOrTx, ClaimCoalescer>();

function coalescerFor(db: DbOrTx): ClaimCoalescer {
  let coalescer = coalescers.get(db);
  if (!coalescer) {
    coalescer = new ClaimCoalescer(async () => db, coalescerOptionsFromEnv());
    coalescers.set(db, coalescer);
  }
  return coalescer;
}

export const claimRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/v1/claim",
    access: allowed("decide"),
    observe: "window",
    doc: {
      summary: "Claim a message for a consumer group: new once per TTL window, duplicate inside it",
      tags: ["window"],
      request: claimRequestSchema,
      responses: { 200: claimResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(claimRequestSchema);
      ctx.requireScope("consumerGroups", input.consumerGroup);
      const db = hotDb(await ctx.store());
      return ok(await coalescerFor(db).submit({ ...input, origin: originOf(ctx) }));
    },
  },
  {
    method: "POST",
    path: "/api/v1/claim/batch",
    access: allowed("decide"),
    observe: "window",
    doc: {
      summary: "Claim up to 1000 messages; results in request order, repeated keys decided in order",
      tags: ["window"],
      request: claimBatchRequestSchema,
      responses: { 200: claimBatchResponseSchema, 400: errorSchema, 413: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const { items } = await ctx.json(claimBatchRequestSchema);
      for (const item of items) ctx.requireScope("consumerGroups", item.consumerGroup);
      const db = hotDb(await ctx.store());
      const origin = originOf(ctx);
      return ok({ results: await claimMany(db, items.map((item) => ({ ...item, origin }))) });
    },
  },
  {
    method: "POST",
    path: "/api/v1/claim/release",
    access: allowed("release"),
    doc: {
      summary:
        "Forget a claim whose work failed, so a redelivery is claimed again; released: false when no claim is inside its window. " +
        "With claimedAt, a key claimed again since is refused (409). Not audited: a machine action on one key, like an idempotency release",
      tags: ["window"],
      request: claimReleaseRequestSchema,
      responses: { 200: claimReleaseResponseSchema, 400: errorSchema, 409: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const input = await ctx.json(claimReleaseRequestSchema);
      ctx.requireScope("consumerGroups", input.consumerGroup);
      const db = hotDb(await ctx.store());
      return ok(await releaseClaim(db, input, originOf(ctx)));
    },
  },
];
