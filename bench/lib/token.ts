import type { DbOrTx } from "@/db/types";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";

/** A real API token made with weir's own verb, scoped like a production consumer's. */
export async function mintToken(db: DbOrTx, scopes: { services?: string[]; consumerGroups?: string[] }, role: "service" | "admin" = "service"): Promise<string> {
  const { token } = await createApiToken({
    db,
    actor: SYSTEM_ACTOR,
    input: { name: "bench", role, services: scopes.services ?? [], consumerGroups: scopes.consumerGroups ?? [], idempotencyScopes: [], reason: "benchmark" },
  });
  return token;
}
