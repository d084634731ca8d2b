import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The index, as /api/metrics loads it: every metric weir registers, the journal's included.
import { metrics, watchStore } from ".";

const docs = path.resolve(import.meta.dirname, "../../docs");

/** Metric names a PromQL text refers to, with histogram series suffixes mapped to their metric. */
function metricNames(promql: string): string[] {
  return [...promql.matchAll(/\bweir_[a-z0-9_]+/g)].map(([name]) => name.replace(/_(bucket|count|sum)$/, ""));
}

function assertRegistered(names: string[]): void {
  watchStore(() => Promise.reject(new Error("no store in this test")));
  const missing = [...new Set(names)].filter((name) => !metrics.registry.getSingleMetric(name));
  expect(missing).toEqual([]);
}

describe("the Grafana dashboard and the alert rules", () => {
  it("chart only metrics weir exposes", async () => {
    const dashboard = JSON.parse(await readFile(path.join(docs, "grafana-dashboard.json"), "utf8")) as {
      panels: { type: string; targets?: { expr: string }[] }[];
      templating: { list: { query?: unknown }[] };
    };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets?.map((t) => t.expr) ?? []);
    expect(exprs.length).toBeGreaterThan(15);
    const variables = dashboard.templating.list.map((v) => JSON.stringify(v.query ?? ""));
    assertRegistered([...exprs, ...variables].flatMap(metricNames));
  });

  it("alert only on metrics weir exposes", async () => {
    const text = await readFile(path.join(docs, "alerts.md"), "utf8");
    const rules = /```yaml\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
    const names = metricNames(rules);
    expect(names).toContain("weir_store_up");
    expect(names).toContain("weir_late_redeliveries_total");
    assertRegistered(names);
  });
});
