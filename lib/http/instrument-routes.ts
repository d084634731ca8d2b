import { countStoreError, metrics, observeCleanupBody } from "@/lib/metrics";
import { errorStatusAndCode } from "./respond";
import type { HttpResult, ObservedAs, Route } from "./types";

/**
 * The decision-latency mode of a route's answers, by its `observe`. The decisions
 * themselves are counted where they are made (lib/telemetry/decisions.ts), never
 * read back from a response body.
 */
const DECISION_MODES: Partial<Record<ObservedAs, "last_seen" | "window" | "idempotency">> = {
  last_seen: "last_seen",
  window: "window",
  idempotency_begin: "idempotency",
};

function errorCodeOf(result: HttpResult): string {
  const error = (result.body as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" ? error.code : String(result.status);
}

/**
 * Wraps every route handler: a latency histogram per route pattern (and per
 * decision mode), error counts by code, store errors (503) and cleanup passes.
 * The handlers stay unaware of metrics; a failing observer never fails a request.
 */
export function instrumentRoutes(routes: Route[]): Route[] {
  return routes.map((route) => {
    const mode = route.observe && DECISION_MODES[route.observe];
    const decision = mode ? metrics.decisionDuration.labels({ mode, route: route.path }) : undefined;
    const cleanup = route.observe === "cleanup";
    return {
      ...route,
      handler: async (ctx) => {
        const started = performance.now();
        let status = 500;
        try {
          const result = await route.handler(ctx);
          status = result.status;
          safely(() => {
            if (status >= 400) recordError(route, errorCodeOf(result), status);
            else if (cleanup) observeCleanupBody(result.body);
          });
          return result;
        } catch (err) {
          const classified = errorStatusAndCode(err);
          status = classified.status;
          safely(() => recordError(route, classified.code, status));
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
