import { ForbiddenError } from "@/lib/errors";
import type { Actor, ScopeKind, Scopes } from "./actor";
import { grants, type Permission } from "./permissions";
import { SCOPE_LABEL, inScope, isUnscoped, scopeOutside } from "./scopes";

/**
 * What an operation touches, beyond the permission it needs:
 * - one id of one kind (a service, a consumer group, an idempotency scope);
 * - something that carries scopes itself (an API token): the actor must hold all of them;
 * - "unscoped": it spans every id (users, cleanup), so only an actor scoped to "*" everywhere may.
 */
export type Target = { kind: ScopeKind; id: string } | { scopes: Partial<Scopes> } | "unscoped";

/** Why the actor may not, or null when it may. The one rule behind `authorize` and `can`. */
function refusal(actor: Actor, permission: Permission, target?: Target): string | null {
  if (!grants(actor.role, permission)) return `the ${actor.role} role may not ${permission}`;
  if (target === undefined) return null;
  if (target === "unscoped") return isUnscoped(actor) ? null : 'this operation spans every id; it needs a credential scoped to "*"';
  if ("kind" in target) return inScope(actor, target.kind, target.id) ? null : `this token is not allowed to use ${SCOPE_LABEL[target.kind]} "${target.id}"`;
  const outside = scopeOutside(actor, target.scopes);
  return outside ? `${SCOPE_LABEL[outside.kind]} "${outside.id}" is outside your own scope` : null;
}

/**
 * The one authorisation check of weir: every verb, route guard, server action
 * and page asks it, whichever door the actor came through. Refuses with 403
 * before anything is read, so a token for service A learns nothing about B.
 */
export function authorize(actor: Actor, permission: Permission, target?: Target): void {
  const reason = refusal(actor, permission, target);
  if (reason !== null) throw new ForbiddenError(reason);
}

/** The same rule as a boolean, for showing or hiding a button and for filtering lists. */
export function can(actor: Actor, permission: Permission, target?: Target): boolean {
  return refusal(actor, permission, target) === null;
}

/** Keeps the items the actor may see with `permission`, for list endpoints. */
export function filterAuthorized<T>(actor: Actor, permission: Permission, items: readonly T[], targetOf: (item: T) => Target): T[] {
  return items.filter((item) => can(actor, permission, targetOf(item)));
}
