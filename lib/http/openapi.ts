import { z, type ZodType } from "zod";
import type { ApiDoc } from "./api-doc";

function schemaOf(schema: ZodType, io: "input" | "output") {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return json;
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => ({
    name: match[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

/** OpenAPI 3.1 built from the zod schemas that validate the requests. */
export function buildOpenApi(docs: ApiDoc[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs) {
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(doc.responses)) {
      responses[status] =
        typeof schema === "string"
          ? { description: schema }
          : { description: schema.description ?? `HTTP ${status}`, content: { "application/json": { schema: schemaOf(schema, "output") } } };
    }
    responses["401"] ??= { description: "No API token, or an unknown, revoked or expired one (an expired one: code token_expired, reason \"token expired\", expiredAt)" };
    responses["403"] ??= { description: "The token's role or scope does not cover this call" };
    responses["503"] ??= { description: "The store is unreachable; no decision was made. Retry after the Retry-After header." };
    const parameters = pathParameters(doc.path);
    (paths[doc.path] ??= {})[doc.method.toLowerCase()] = {
      summary: doc.summary,
      tags: doc.tags,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(doc.request
        ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(doc.request, "input") } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "weir",
      version,
      description: "Deduplication service: last-seen checks, window claims and idempotency keys on one PostgreSQL store.",
    },
    // Every route needs a token except /api/health and this document (each route's access rule, lib/http/access.ts).
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token (weir_...), scoped to services, consumer groups and idempotency scopes" },
      },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
