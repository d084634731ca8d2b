import type { Store } from "@/db/client";
import { instrumentRoutes } from "@/lib/metrics";
import { coalescerOptionsFromEnv } from "@/lib/dedup/coalescer";
import { CheckCoalescer } from "@/lib/dedup/last-seen/coalescer";
import type { ApiDoc } from "../api-doc";
import { guardRoutes } from "../guard-routes";
import type { Route } from "../types";
import { checkDocs, checkRoutes } from "./check";
import { claimDocs, claimRoutes } from "./claims";
import { cleanupDocs, cleanupRoutes } from "./cleanup";
import { consumerGroupDocs, consumerGroupRoutes } from "./consumer-groups";
import { healthRoutes } from "./health";
import { idempotencyDocs, idempotencyRoutes } from "./idempotency";
import { metricsRoutes } from "./metrics";
import { openApiRoutes } from "./openapi";
import { serviceDocs, serviceRoutes } from "./services";
import { tokenDocs, tokenRoutes } from "./tokens";
import { userDocs, userRoutes } from "./users";

export const apiDocs: ApiDoc[] = [
  ...checkDocs,
  ...serviceDocs,
  ...claimDocs,
  ...consumerGroupDocs,
  ...idempotencyDocs,
  ...cleanupDocs,
  ...tokenDocs,
  ...userDocs,
];

/** Every route of the machine API, bound to one store. */
export function createApiRoutes(getStore: () => Promise<Store>): Route[] {
  // Concurrent single checks (and claims) share statements; most of the pool stays free for batches and the console.
  const coalescer = new CheckCoalescer(async () => (await getStore()).db, coalescerOptionsFromEnv());
  // Guarded inside the metrics wrapper, so refused calls and store outages during authentication are counted.
  const routes = guardRoutes(
    [
      ...checkRoutes(coalescer),
      ...serviceRoutes,
      ...claimRoutes,
      ...consumerGroupRoutes,
      ...idempotencyRoutes,
      ...cleanupRoutes,
      ...tokenRoutes,
      ...userRoutes,
      ...healthRoutes,
      ...openApiRoutes(() => apiDocs),
      ...metricsRoutes(getStore),
    ],
    getStore,
  );
  return instrumentRoutes(routes);
}
