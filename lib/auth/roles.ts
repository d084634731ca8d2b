import type { ConsoleRole, Role } from "./actor";

/** Roles in increasing power; "service" is for API tokens and never reaches the console. */
const RANK: Record<Role, number> = { service: 0, viewer: 1, operator: 2, admin: 3 };

export const CONSOLE_ROLES: readonly ConsoleRole[] = ["viewer", "operator", "admin"];
export const TOKEN_ROLES: readonly Role[] = ["service", "viewer", "operator", "admin"];

export function hasRole(actual: Role, required: ConsoleRole): boolean {
  return actual !== "service" && RANK[actual] >= RANK[required];
}

export function isConsoleRole(value: unknown): value is ConsoleRole {
  return typeof value === "string" && (CONSOLE_ROLES as readonly string[]).includes(value);
}
