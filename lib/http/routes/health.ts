import type { Store } from "@/db/client";
import { existingKeyListener } from "@/lib/dedup/idempotency/key-listener";
import { PUBLIC } from "../access";
import { degradationOf, gateState, type WaiterState } from "../saturation";
import type { Route } from "../types";

function waiterState(store: Store): WaiterState | undefined {
  const listener = existingKeyListener(store);
  return listener && { waiting: listener.waiting, maxWaiters: listener.maxWaiters, refusedFull: listener.refusedFull };
}

const COORDINATOR_PROBE_MS = 500;

/** With the hot path on the Citus workers: whether the coordinator (console writes, resets) answers too. */
async function coordinatorState(store: Store): Promise<{ coordinator: { reachable: boolean } } | undefined> {
  if (!store.pingCoordinator) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), COORDINATOR_PROBE_MS)));
  const reachable = await Promise.race([store.pingCoordinator().then(() => true, () => false), late]).finally(() => clearTimeout(timer));
  return { coordinator: { reachable } };
}

/**
 * Reports the store's reachability (with WEIR_CITUS_ROUTE_URLS, the workers': the coordinator's is
 * reported beside it, and its loss alone keeps the answer 200, since checks go on); 503 while it is down so load balancers stop routing here.
 * While the store is up the answer is 200, with `degraded` saying whether (and why) this node is
 * refusing work it would take at normal load: shedding, a lowered limit, a full waiting room.
 */
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
      const gate = gateState();
      const waiters = waiterState(store);
      const capacity = gate && { ...gate, ...(waiters ? { waiters: waiters.waiting, maxWaiters: waiters.maxWaiters } : {}) };
      return {
        status: 200,
        body: { status: "ok", store: { reachable: true, kind: store.kind, latencyMs, ...(await coordinatorState(store)) }, degraded: degradationOf(gate, waiters), ...(capacity ? { capacity } : {}) },
      };
    },
  },
];
