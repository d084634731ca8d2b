import type { Store } from "@/db/client";
import { metrics, watchStore } from "@/lib/metrics";
import { METRICS } from "../access";
import type { Route } from "../types";

/** Prometheus exposition of the process's registry; store gauges are read at scrape time. */
export function metricsRoutes(getStore: () => Promise<Store>): Route[] {
  watchStore(getStore);
  return [
    {
      method: "GET",
      path: "/api/metrics",
      access: METRICS,
      doc: null,
      handler: async () => ({
        status: 200,
        rawBody: await metrics.registry.metrics(),
        headers: { "content-type": metrics.registry.contentType },
      }),
    },
  ];
}
