import type { ApiTokenRecord, ApiTokenRow } from "@/db/queries/auth-tokens";
import type { Actor, Role, TokenLimits } from "../actor";

export function tokenLimits(row: ApiTokenRecord): TokenLimits | undefined {
  if (row.maxInFlight === null && row.requestsPerSecond === null) return undefined;
  return { maxInFlight: row.maxInFlight, requestsPerSecond: row.requestsPerSecond };
}

export function tokenActor(row: ApiTokenRecord): Actor {
  const limits = tokenLimits(row);
  return {
    id: `token:${row.id}`,
    role: row.role as Role,
    via: "token",
    scopes: { services: row.services, consumerGroups: row.consumerGroups, idempotencyScopes: row.idempotencyScopes },
    ...(limits ? { limits } : {}),
  };
}

export function tokenBody(row: ApiTokenRow) {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    prefix: row.prefix,
    services: row.services,
    consumerGroups: row.consumerGroups,
    idempotencyScopes: row.idempotencyScopes,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    maxInFlight: row.maxInFlight,
    requestsPerSecond: row.requestsPerSecond,
  };
}
export type TokenBody = ReturnType<typeof tokenBody>;
