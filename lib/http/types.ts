import type { IncomingMessage } from "node:http";
import type { Store } from "@/db/client";
import type { Actor, ScopeKind } from "@/lib/auth/actor";

/** A response before it is written: JSON bodies are serialised by the server, raw text is sent as is. */
export interface HttpResult {
  status: number;
  body?: unknown;
  /** Sent verbatim instead of JSON-serialising `body` (e.g. Prometheus text). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiContext {
  req: IncomingMessage;
  url: URL;
  /** Decoded path parameters, in the order of the route pattern's groups. */
  params: string[];
  requestId: string;
  /**
   * Who is calling, authenticated and checked against the route's entry in
   * access-policy.ts before the handler runs. Public routes see ANONYMOUS.
   */
  actor: Actor;
  /** Refuses (403) an id from the body that is outside the caller's token scope. */
  requireScope(kind: ScopeKind, id: string): void;
  /** The shared store; rejects with a store-unavailable error while the database is down. */
  store(): Promise<Store>;
  /** The request body as text, enforcing the size limit (413) and UTF-8 (400). */
  text(): Promise<string>;
  /** The request body parsed as JSON (duplicate fields rejected) and validated by a zod schema. */
  json<T>(schema: import("zod").ZodType<T>): Promise<T>;
}

export type RouteHandler = (ctx: ApiContext) => Promise<HttpResult>;

export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A path like /api/v1/services/:id; each :name matches one URL segment. */
  path: string;
  handler: RouteHandler;
}

export const ok = (body: unknown, status = 200): HttpResult => ({ status, body });
