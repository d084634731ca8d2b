import { describe, expect, it } from "vitest";
import { accessPolicy } from "@/lib/http/access";
import { apiDocsOf } from "@/lib/http/api-doc";
import { buildOpenApi } from "@/lib/http/openapi";
import { createApiRoutes } from "@/lib/http/routes";

const routes = createApiRoutes(async () => {
  throw new Error("only the route table is read here");
});
const PERMISSIONS = ["public", "metrics", "read", "decide", "release", "operate", "admin"];

describe("a route is one object", () => {
  it("carries its access rule, and the policy is read from the routes", () => {
    for (const route of routes) expect(PERMISSIONS, `${route.method} ${route.path}`).toContain(route.access?.permission);
    const policy = accessPolicy(routes);
    expect(Object.keys(policy)).toHaveLength(routes.length);
    expect(policy["PUT /api/v1/services/:id"]).toEqual({ permission: "admin", scope: { kind: "services", param: 0 } });
    expect(policy["GET /api/v1/users"]).toEqual({ permission: "admin", unscoped: true });
  });

  it("documents every route in the OpenAPI document except the operational ones, with {param} paths", async () => {
    const undocumented = routes.filter((r) => r.doc === null).map((r) => r.path).sort();
    expect(undocumented).toEqual(["/api/health", "/api/metrics", "/api/v1/openapi.json"]);
    const document = buildOpenApi(apiDocsOf(routes), "test");
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = routes.filter((r) => r.doc).map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`);
    expect(operations.sort()).toEqual(expected.sort());
    expect(document.paths["/api/v1/services/{id}/keys/{messageId}"]?.get).toMatchObject({ summary: expect.any(String) });
  });

  it("names each decision route's metrics after its own path pattern", () => {
    const observed = routes.filter((r) => r.observe).map((r) => `${r.method} ${r.path}`);
    expect(observed).toEqual(expect.arrayContaining(["POST /api/v1/check", "POST /api/v1/check/batch", "POST /api/v1/claim", "POST /api/v1/idempotency/:scope/begin"]));
  });
});
