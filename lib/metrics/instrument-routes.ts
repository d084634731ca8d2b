import type { ApiContext, HttpResult, ObservedAs, Route } from "@/lib/http/types";
import { observeCleanupBody } from "./cleanup";
import { classifyError, countBegin, countChecks, countClaims, countRelease, countStoreError, type DecisionMode } from "./outcomes";
import { metrics } from "./registry";

interface Observer {
  mode?: DecisionMode;
  onResult?(result: HttpResult, ctx: ApiContext): void;
  onError?(code: string, ctx: ApiContext): void;
}

const BEGIN_ERRORS = new Set(["in_progress", "mismatch"]);

/**
 * How to read the answers of each kind of route (its `observe`) for decision
 * counters; the label of every series is the route's own path pattern. Routes
 * without `observe` only get latency and errors.
 */
const OBSERVERS: Record<ObservedAs, Observer> = {
  last_seen: { mode: "last_seen", onResult: (r) => countChecks(r.body) },
  window: { mode: "window", onResult: (r) => countClaims(r.body) },
  idempotency_begin: {
    mode: "idempotency",
    onResult: (r, ctx) => {
      const outcome = (r.body as { outcome?: unknown } | undefined)?.outcome;
      if (typeof outcome === "string" && ctx.params[0]) countBegin(ctx.params[0], outcome);
    },
    onError: (code, ctx) => {
      if (BEGIN_ERRORS.has(code) && ctx.params[0]) countBegin(ctx.params[0], code);
    },
  },
  idempotency_release: {
    onResult: (r, ctx) => {
      const released = (r.body as { released?: unknown } | undefined)?.released;
      if (typeof released === "boolean" && ctx.params[0]) countRelease(ctx.params[0], released);
    },
  },
  cleanup: { onResult: (r) => observeCleanupBody(r.body) },
};

function errorCodeOf(result: HttpResult): string {
  const error = (result.body as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" ? error.code : String(result.status);
}

/**
 * Wraps every route handler: a latency histogram per route pattern, decision
 * counters read from the answers, error counts by code, and store errors (503).
 * The handlers stay unaware of metrics; a failing observer never fails a request.
 */
export function instrumentRoutes(routes: Route[]): Route[] {
  return routes.map((route) => {
    const observer = route.observe && OBSERVERS[route.observe];
    const decision = observer?.mode ? metrics.decisionDuration.labels({ mode: observer.mode, route: route.path }) : undefined;
    return {
      ...route,
      handler: async (ctx) => {
        const started = performance.now();
        let status = 500;
        try {
          const result = await route.handler(ctx);
          status = result.status;
          safely(() => {
            if (status < 400) observer?.onResult?.(result, ctx);
            else recordError(route, errorCodeOf(result), status);
          });
          return result;
        } catch (err) {
          const classified = classifyError(err);
          status = classified.status;
          safely(() => {
            recordError(route, classified.code, status);
            observer?.onError?.(classified.code, ctx);
          });
          throw err;
        } finally {
          const seconds = (performance.now() - started) / 1000;
          metrics.requestDuration.observe({ method: route.method, route: route.path, status: String(status) }, seconds);
          if (decision && status < 500) decision.observe(seconds);
        }
      },
    };
  });
}

function recordError(route: Route, code: string, status: number): void {
  metrics.requestErrors.inc({ route: route.path, code });
  if (status === 503) countStoreError(route.path);
}

function safely(run: () => void): void {
  try {
    run();
  } catch (err) {
    console.error(`[weir] metrics observer failed: ${(err as Error).message}`);
  }
}
