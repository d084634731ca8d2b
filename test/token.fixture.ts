import type { DbOrTx } from "@/db/types";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createApiToken } from "@/lib/auth/tokens/create-token";
import type { CreateTokenInput } from "@/lib/validation/tokens";

/** An API token for a test (admin over every id unless told otherwise), created through the real verb. */
export async function createTestToken(db: DbOrTx, input: Partial<CreateTokenInput> = {}): Promise<string> {
  const { token } = await createApiToken({
    db,
    actor: SYSTEM_ACTOR,
    input: { name: "test", role: "admin", services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"], ...input },
  });
  return token;
}
