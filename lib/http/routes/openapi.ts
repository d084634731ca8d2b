import { PUBLIC } from "../access";
import type { ApiDoc } from "../api-doc";
import { buildOpenApi } from "../openapi";
import { ok, type Route } from "../types";

export function openApiRoutes(docs: () => ApiDoc[]): Route[] {
  let document: unknown;
  return [
    {
      method: "GET",
      path: "/api/v1/openapi.json",
      access: PUBLIC,
      doc: null,
      handler: async () => ok((document ??= buildOpenApi(docs(), process.env.npm_package_version ?? "0.1.0"))),
    },
  ];
}
