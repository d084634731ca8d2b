import { timingSafeEqual } from "node:crypto";
import type { Store } from "@/db/client";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { UnauthorizedError } from "@/lib/errors";
import { targetOf } from "./access";
import { authenticate } from "./authenticate";
import type { Route, RouteHandler } from "./types";
import { setting } from "@/lib/config";

/** The caller of a public route: its scopes are empty, so any scope check refuses it. */
export const ANONYMOUS: Actor = Object.freeze({ id: "anonymous", role: "service", scopes: { services: [], consumerGroups: [], idempotencyScopes: [] } });

const GUARDED = Symbol.for("weir.route-guarded");

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Metrics must answer while the database is down (that is when they matter),
 * so they are checked against WEIR_METRICS_TOKEN in memory, never the store.
 * Without that variable they are open, for a scraper on a private network.
 */
function checkMetricsToken(authorization: string | undefined): void {
  const expected = setting("WEIR_METRICS_TOKEN");
  if (!expected) return;
  if (!authorization || !sameSecret(authorization, `Bearer ${expected}`)) throw new UnauthorizedError("send Authorization: Bearer <WEIR_METRICS_TOKEN>");
}

function guarded(route: Route, getStore: () => Promise<Store>): RouteHandler {
  const access = route.access;
  return async (ctx) => {
    if (access.permission === "public") return route.handler(ctx);
    if (access.permission === "metrics") {
      checkMetricsToken(ctx.req.headers.authorization);
      return route.handler(ctx);
    }
    const actor = await authenticate(ctx.req, getStore);
    authorize(actor, access.permission, targetOf(access, ctx.params));
    ctx.admit?.(actor);
    // The context is this request's own (api-handler.ts): recording the caller on it costs no copy.
    ctx.actor = actor;
    return route.handler(ctx);
  };
}

/**
 * Authenticates and authorises each route's caller from the route's access
 * rule before its handler runs. Idempotent: an already guarded route is left as is,
 * so createApiRoutes can guard inside the metrics wrapper (auth failures and
 * store outages during auth are counted) and createApiHandler still guards
 * anything else it is given.
 */
export function guardRoutes(routes: Route[], getStore: () => Promise<Store>): Route[] {
  return routes.map((route) =>
    (route as { [GUARDED]?: true })[GUARDED] ? route : Object.assign({ ...route, handler: guarded(route, getStore) }, { [GUARDED]: true }),
  );
}
