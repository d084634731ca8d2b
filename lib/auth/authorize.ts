import { ForbiddenError } from "@/lib/errors";
import type { Actor } from "./actor";
import { can, type Permission } from "./permissions";

/** Inside every verb: the actor must hold the permission, whichever door it came through. */
export function authorize(actor: Actor, permission: Permission): void {
  if (!can(actor.role, permission)) throw new ForbiddenError(`the ${actor.role} role may not ${permission}`);
}
