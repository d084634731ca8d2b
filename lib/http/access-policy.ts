import type { ScopeKind } from "@/lib/auth/actor";
import type { Permission } from "@/lib/auth/permissions";

/**
 * Who may call each machine-API route, in one table so that the whole policy
 * is reviewed together. A route missing here is refused (deny by default) and
 * fails the authorisation matrix test. Ids that arrive in the path are scope
 * checked before the handler runs; ids in the body are checked by the handler.
 */
export interface Access {
  /** "metrics": WEIR_METRICS_TOKEN when set, checked without the store (see guard-routes.ts). */
  permission: Permission | "public" | "metrics";
  /** The path parameter (by position) that names a scoped id. */
  scope?: { kind: ScopeKind; param: number };
  /** Global operations: the token must hold "*" for every scope kind. */
  unscoped?: true;
}

const PUBLIC: Access = { permission: "public" };
const service = (permission: Permission): Access => ({ permission, scope: { kind: "services", param: 0 } });
const group = (permission: Permission): Access => ({ permission, scope: { kind: "consumerGroups", param: 0 } });
const idempotency = (permission: Permission): Access => ({ permission, scope: { kind: "idempotencyScopes", param: 0 } });

export const ACCESS_POLICY: Readonly<Record<string, Access>> = {
  "GET /api/health": PUBLIC,
  "GET /api/v1/openapi.json": PUBLIC,
  "GET /api/metrics": { permission: "metrics" },

  "POST /api/v1/check": { permission: "decide" },
  "POST /api/v1/check/batch": { permission: "decide" },
  "GET /api/v1/services": { permission: "read" },
  "GET /api/v1/services/:id": service("read"),
  "PUT /api/v1/services/:id": service("admin"),
  "GET /api/v1/services/:id/keys/:messageId": service("read"),

  "POST /api/v1/claim": { permission: "decide" },
  "POST /api/v1/claim/batch": { permission: "decide" },
  "POST /api/v1/cleanup": { permission: "operate", unscoped: true },
  "GET /api/v1/consumer-groups": { permission: "read" },
  "PUT /api/v1/consumer-groups/:id": group("operate"),
  "POST /api/v1/consumer-groups/:id/ttl-preview": group("read"),
  "GET /api/v1/consumer-groups/:id/ttl-changes": group("read"),

  "POST /api/v1/idempotency/:scope/begin": idempotency("decide"),
  "POST /api/v1/idempotency/:scope/complete": idempotency("decide"),
  "POST /api/v1/idempotency/:scope/release": idempotency("release"),
  "GET /api/v1/idempotency-scopes/:id": idempotency("read"),
  "PUT /api/v1/idempotency-scopes/:id": idempotency("operate"),

  "GET /api/v1/tokens": { permission: "admin" },
  "POST /api/v1/tokens": { permission: "admin" },
  "DELETE /api/v1/tokens/:id": { permission: "admin" },
  "GET /api/v1/users": { permission: "admin", unscoped: true },
  "POST /api/v1/users": { permission: "admin", unscoped: true },
  "PUT /api/v1/users/:id/role": { permission: "admin", unscoped: true },
};

export function accessFor(method: string, path: string): Access | undefined {
  return ACCESS_POLICY[`${method} ${path}`];
}
