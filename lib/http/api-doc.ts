import type { ZodType } from "zod";

/** What the OpenAPI document says about one route; the schemas are the ones that validate it. */
export interface RouteDoc {
  summary: string;
  tags?: string[];
  request?: ZodType;
  responses: Record<number, ZodType | string>;
}

/** A route's doc with its method and OpenAPI path ("/services/{id}"), as the document builder reads it. */
export interface ApiDoc extends RouteDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
}

/** The documented routes, in order, with ":id" path parameters written the OpenAPI way ("{id}"). */
export function apiDocsOf(routes: readonly { method: ApiDoc["method"]; path: string; doc: RouteDoc | null }[]): ApiDoc[] {
  return routes.flatMap((route) =>
    route.doc ? [{ method: route.method, path: route.path.replace(/:([A-Za-z]+)/g, "{$1}"), ...route.doc }] : [],
  );
}
