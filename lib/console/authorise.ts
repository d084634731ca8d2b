import type { Actor, Role } from "@/lib/auth/actor";
import { hasRole } from "@/lib/auth/roles";
import { ForbiddenError } from "@/lib/errors";

/** Verbs check the role themselves, so a caller that forgot to cannot act above its rights. */
export function authorise(actor: Actor, role: Exclude<Role, "service">): void {
  if (!hasRole(actor.role, role)) throw new ForbiddenError(`this needs the ${role} role`);
}

export const canOperate = (actor: Actor) => hasRole(actor.role, "operator");
