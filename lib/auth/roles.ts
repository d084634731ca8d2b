import type { ConsoleRole, Role } from "./actor";

export const CONSOLE_ROLES: readonly ConsoleRole[] = ["viewer", "operator", "admin"];
export const TOKEN_ROLES: readonly Role[] = ["service", "viewer", "operator", "admin"];

export function isConsoleRole(value: unknown): value is ConsoleRole {
  return typeof value === "string" && (CONSOLE_ROLES as readonly string[]).includes(value);
}
