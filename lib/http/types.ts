import type { IncomingMessage } from "node:http";
import type { Store } from "@/db/client";
import type { Actor, ScopeKind } from "@/lib/auth/actor";
import type { Access } from "./access";
import type { RouteDoc } from "./api-doc";

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
   * Who is calling, authenticated and checked against the route's access rule
   * before the handler runs. Public routes see ANONYMOUS.
   */
  actor: Actor;
  /** Refuses (403) an id from the body that is outside the caller's token scope. */
  requireScope(kind: ScopeKind, id: string): void;
  /** Applies an authenticated caller's own limits (429 past them); set by the capacity gate (capacity-gate.ts). */
  admit?: (actor: Actor) => void;
  /**
   * Called by a handler that starts to wait by design (a begin with waitSeconds): it keeps its
   * slot but does no work, and its time says nothing of the node's load (then `longPoll` is true).
   */
  waiting(): void;
  longPoll?: boolean;
  /** The shared store; rejects with a store-unavailable error while the database is down. */
  store(): Promise<Store>;
  /** The request body as text, enforcing the size limit (413) and UTF-8 (400). */
  text(): Promise<string>;
  /** The request body parsed as JSON (duplicate fields rejected) and validated by a zod schema. */
  json<T>(schema: import("zod").ZodType<T>): Promise<T>;
}

export type RouteHandler = (ctx: ApiContext) => Promise<HttpResult>;

/** Which decision-latency histogram (or cleanup counters) a route feeds (lib/http/instrument-routes.ts); decisions are counted by the engine. */
export type ObservedAs = "last_seen" | "window" | "idempotency_begin" | "idempotency_release" | "cleanup";

/**
 * One route of the machine API, declared once: the access policy, the OpenAPI
 * document and the metrics labels are all derived from the list of these.
 */
export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** A path like /api/v1/services/:id; each :name matches one URL segment. */
  path: string;
  /** Who may call it; required, so a route cannot exist without its rule (lib/http/access.ts). */
  access: Access;
  /** What the OpenAPI document says; null keeps an operational route (health, metrics) out of it. */
  doc: RouteDoc | null;
  observe?: ObservedAs;
  handler: RouteHandler;
}

export const ok = (body: unknown, status = 200): HttpResult => ({ status, body });
