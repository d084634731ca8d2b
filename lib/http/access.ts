import type { ScopeKind } from "@/lib/auth/actor";
import type { Target } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";

/**
 * Who may call a machine-API route. Every route object carries one (the type
 * requires it), so a route cannot exist without its rule; `accessPolicy`
 * lists them all for review and for the authorisation matrix test. Ids that
 * arrive in the path are authorised before the handler runs; ids in the body
 * are authorised by the handler or its verb.
 */
export interface Access {
  /** "metrics": WEIR_METRICS_TOKEN when set, checked without the store (see guard-routes.ts). */
  permission: Permission | "public" | "metrics";
  /** The path parameter (by position) that names a scoped id. */
  scope?: { kind: ScopeKind; param: number };
  /** Operations over every id (users, cleanup): the credential must hold "*" for every scope kind. */
  unscoped?: true;
}

export const PUBLIC: Access = { permission: "public" };
export const METRICS: Access = { permission: "metrics" };
/** Any authenticated caller holding the permission; lists filter by scope, bodies are authorised by the handler. */
export const allowed = (permission: Permission): Access => ({ permission });
export const everyId = (permission: Permission): Access => ({ permission, unscoped: true });
export const service = (permission: Permission): Access => ({ permission, scope: { kind: "services", param: 0 } });
export const group = (permission: Permission): Access => ({ permission, scope: { kind: "consumerGroups", param: 0 } });
export const idempotencyScope = (permission: Permission): Access => ({ permission, scope: { kind: "idempotencyScopes", param: 0 } });

/** What `authorize` checks for a request to a route with this rule, given the decoded path parameters. */
export function targetOf(access: Access, params: readonly string[]): Target | undefined {
  if (access.unscoped) return "unscoped";
  return access.scope && { kind: access.scope.kind, id: params[access.scope.param] ?? "" };
}

/** The whole policy, "METHOD /path" -> rule, derived from the route list. */
export function accessPolicy(routes: readonly { method: string; path: string; access: Access }[]): Record<string, Access> {
  return Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.access]));
}
