import { ForbiddenError } from "@/lib/errors";
import type { Actor, ScopeKind, Scopes } from "./actor";

const LABEL: Record<ScopeKind, string> = {
  services: "service",
  consumerGroups: "consumer group",
  idempotencyScopes: "idempotency scope",
};

/** Unscoped actors (console users, the system) reach every id; tokens only their lists. */
export function inScope(actor: Actor, kind: ScopeKind, id: string): boolean {
  const list = actor.scopes?.[kind];
  if (list === undefined) return actor.scopes === undefined;
  return list.includes("*") || list.includes(id);
}

/**
 * Refuses an id outside the actor's scope with 403, before anything is read,
 * so that a token for service A learns nothing about service B (not even
 * whether it exists).
 */
export function assertInScope(actor: Actor, kind: ScopeKind, id: string): void {
  if (!inScope(actor, kind, id)) throw new ForbiddenError(`this token is not allowed to use ${LABEL[kind]} "${id}"`);
}

/** Keeps the items whose id the actor may see, for list endpoints. */
export function filterInScope<T>(actor: Actor, kind: ScopeKind, items: readonly T[], idOf: (item: T) => string): T[] {
  return items.filter((item) => inScope(actor, kind, idOf(item)));
}

/** Whether every list of the actor's scopes is "*" (required for global operations such as cleanup). */
export function isUnscoped(actor: Actor): boolean {
  if (!actor.scopes) return true;
  const all = (list: readonly string[]) => list.includes("*");
  const s: Scopes = actor.scopes;
  return all(s.services) && all(s.consumerGroups) && all(s.idempotencyScopes);
}
