import type { Actor, ScopeKind, Scopes } from "./actor";

export const SCOPE_KINDS: readonly ScopeKind[] = ["services", "consumerGroups", "idempotencyScopes"];

export const SCOPE_LABEL: Record<ScopeKind, string> = {
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

/** Whether every list of the actor's scopes is "*" (required for global operations such as cleanup). */
export function isUnscoped(actor: Actor): boolean {
  if (!actor.scopes) return true;
  const all = (list: readonly string[]) => list.includes("*");
  const s: Scopes = actor.scopes;
  return all(s.services) && all(s.consumerGroups) && all(s.idempotencyScopes);
}

/**
 * The first scope entry of `held` that the actor does not cover, per kind, or
 * undefined when `held` is a subset of the actor's scopes. A "*" entry is only
 * covered by "*": a token for every service is beyond a token for some.
 */
export function scopeOutside(actor: Actor, held: Partial<Scopes>): { kind: ScopeKind; id: string } | undefined {
  for (const kind of SCOPE_KINDS) {
    for (const id of held[kind] ?? []) {
      const covered = id === "*" ? (actor.scopes === undefined || actor.scopes[kind].includes("*")) : inScope(actor, kind, id);
      if (!covered) return { kind, id };
    }
  }
  return undefined;
}
