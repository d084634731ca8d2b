import type { Store } from "@/db/client";
import type { Route } from "../types";

/** Reports the store's reachability; 503 while it is down so load balancers stop routing here. */
export const healthRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/health",
    handler: async (ctx) => {
      const started = performance.now();
      let store: Store;
      try {
        store = await ctx.store();
        await store.ping();
      } catch (err) {
        return {
          status: 503,
          body: { status: "unavailable", store: { reachable: false, error: (err as Error).message } },
          headers: { "retry-after": "1" },
        };
      }
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      return { status: 200, body: { status: "ok", store: { reachable: true, kind: store.kind, latencyMs } } };
    },
  },
];
