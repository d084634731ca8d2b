import type { Role } from "./actor";

/**
 * What an actor may do through the machine API. Roles are not a ladder here:
 * a service token decides (check, claim, idempotency) but cannot operate, an
 * operator operates but does not make dedup decisions for services.
 */
export type Permission =
  /** read state, settings and history */
  | "read"
  /** last-seen checks, window claims, idempotency begin/complete */
  | "decide"
  /** give an idempotency key back (the caller after a failure, or an operator) */
  | "release"
  /** change TTLs and retention, run cleanup */
  | "operate"
  /** services' settings, API tokens, users */
  | "admin";

const GRANTS: Record<Role, readonly Permission[]> = {
  service: ["read", "decide", "release"],
  viewer: ["read"],
  operator: ["read", "release", "operate"],
  admin: ["read", "decide", "release", "operate", "admin"],
};

/** Whether a role carries a permission; scope is checked by `authorize` (authorize.ts), which calls this. */
export function grants(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}
