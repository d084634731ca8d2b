import { cleanupLag, runCleanup } from "@/lib/dedup/window/cleanup";
import { errorSchema } from "@/lib/validation/common";
import { cleanupRequestSchema, cleanupResponseSchema } from "@/lib/validation/window";
import { everyId } from "../access";
import { ok, type Route } from "../types";

// An HTTP call stays bounded: 200 statements of 5000 rows; the schedule does the rest.
const API_MAX_BATCHES = 200;

export const cleanupRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/v1/cleanup",
    access: everyId("operate"),
    observe: "cleanup",
    doc: {
      summary: "Run one bounded cleanup pass of expired window records and idempotency keys; returns rows removed and lag",
      tags: ["window"],
      request: cleanupRequestSchema,
      responses: { 200: cleanupResponseSchema, 400: errorSchema, 503: errorSchema },
    },
    handler: async (ctx) => {
      const text = await ctx.text();
      const input = text.trim() === "" ? cleanupRequestSchema.parse({}) : await ctx.json(cleanupRequestSchema);
      const { db } = await ctx.store();
      const result = await runCleanup(db, { batchSize: input.batchSize, maxBatches: input.maxBatches ?? API_MAX_BATCHES });
      return ok({ ...result, lag: await cleanupLag(db) });
    },
  },
];
