import type { Store } from "@/db/client";
import { PUBLIC } from "../access";
import type { Route } from "../types";

/** Reports the store's reachability; 503 while it is down so load balancers stop routing here. */
export const healthRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/health",
    access: PUBLIC,
    doc: null,
    handler: async (ctx) => {
      const started = performance.now();
      let store: Store;
      try {
        store = await ctx.store();
        await store.ping();
      } catch (err) {
        // Public: the driver's message names internal hosts and ports, so it goes to the log only.
        console.error(`[weir] health: store unreachable: ${(err as Error).message}`);
        return {
          status: 503,
          body: { status: "unavailable", store: { reachable: false, error: "unreachable" } },
          headers: { "retry-after": "1" },
        };
      }
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      return { status: 200, body: { status: "ok", store: { reachable: true, kind: store.kind, latencyMs } } };
    },
  },
];
