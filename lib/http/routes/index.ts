import { hotDb, type Store } from "@/db/client";
import { coalescerOptionsFromEnv } from "@/lib/dedup/coalescer";
import { CheckCoalescer } from "@/lib/dedup/last-seen/coalescer";
import { apiDocsOf } from "../api-doc";
import { guardRoutes } from "../guard-routes";
import { instrumentRoutes } from "../instrument-routes";
import type { Route } from "../types";
import { checkRoutes } from "./check";
import { claimRoutes } from "./claims";
import { cleanupRoutes } from "./cleanup";
import { consumerGroupRoutes } from "./consumer-groups";
import { erasureRoutes } from "./erasures";
import { healthRoutes } from "./health";
import { idempotencyRoutes } from "./idempotency";
import { idempotencyBulkRoutes } from "./idempotency-bulk";
import { journalRoutes } from "./journal";
import { metricsRoutes } from "./metrics";
import { openApiRoutes } from "./openapi";
import { serviceRoutes } from "./services";
import { tokenRoutes } from "./tokens";
import { userRoutes } from "./users";

/**
 * Every route of the machine API, bound to one store. Each route is one object
 * (method, path, access rule, OpenAPI doc, handler): the access policy, the
 * OpenAPI document and the metrics labels are all read from this list.
 */
export function createApiRoutes(getStore: () => Promise<Store>): Route[] {
  // Concurrent single checks (and claims) share statements; most of the pool stays free for batches and the console.
  const coalescer = new CheckCoalescer(async () => hotDb(await getStore()), coalescerOptionsFromEnv());
  const routes: Route[] = [
    ...checkRoutes(coalescer),
    ...serviceRoutes,
    ...claimRoutes,
    ...consumerGroupRoutes,
    ...idempotencyRoutes,
    ...idempotencyBulkRoutes,
    ...journalRoutes,
    ...cleanupRoutes,
    ...erasureRoutes,
    ...tokenRoutes,
    ...userRoutes,
    ...healthRoutes,
    ...openApiRoutes(() => apiDocsOf(routes)),
    ...metricsRoutes(getStore),
  ];
  // Guarded inside the metrics wrapper, so refused calls and store outages during authentication are counted.
  return instrumentRoutes(guardRoutes(routes, getStore));
}
