import type { ZodType } from "zod";

/** What the OpenAPI document says about one route; the schemas are the ones that validate it. */
export interface ApiDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  summary: string;
  tags?: string[];
  request?: ZodType;
  responses: Record<number, ZodType | string>;
}
