import { auditBy } from "@/db/queries/audit";
import { insertApiToken } from "@/db/queries/auth-tokens";
import type { DbOrTx } from "@/db/types";
import { createTokenSchema, type CreateTokenInput } from "@/lib/validation/tokens";
import type { Actor } from "../actor";
import { authorize } from "../authorize";
import { guardDestructive } from "../recent-sign-in";
import { tokenBody, type TokenBody } from "./token-actor";
import { TOKEN_PREFIX_LENGTH, generateTokenSecret, hashTokenSecret, newTokenId } from "./token-secret";

/**
 * Creates an API token and returns its secret, once; only the hash is kept.
 * A scoped admin token can only hand out scopes it holds itself.
 */
export async function createApiToken({ db, actor, input }: { db: DbOrTx; actor: Actor; input: CreateTokenInput }): Promise<{ token: string; details: TokenBody }> {
  authorize(actor, "admin");
  await guardDestructive(actor, db);
  const parsed = createTokenSchema.parse(input);
  authorize(actor, "admin", { scopes: parsed });
  const token = generateTokenSecret();
  const row = await db.transaction(async (tx) => {
    const created = await insertApiToken(tx, {
      id: newTokenId(),
      name: parsed.name,
      role: parsed.role,
      tokenHash: hashTokenSecret(token),
      prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
      services: parsed.services,
      consumerGroups: parsed.consumerGroups,
      idempotencyScopes: parsed.idempotencyScopes,
      createdBy: actor.id,
      expiresAt: parsed.expiresInDays ? new Date(Date.now() + parsed.expiresInDays * 86_400_000) : null,
      maxInFlight: parsed.maxInFlight ?? null,
      requestsPerSecond: parsed.requestsPerSecond ?? null,
    });
    await auditBy(tx, actor, {
      action: "token.create",
      target: `token:${created.id}`,
      affected: 1,
      reason: parsed.reason ?? null,
      details: {
        name: created.name,
        role: created.role,
        services: created.services,
        consumerGroups: created.consumerGroups,
        idempotencyScopes: created.idempotencyScopes,
        expiresAt: created.expiresAt,
        maxInFlight: created.maxInFlight,
        requestsPerSecond: created.requestsPerSecond,
      },
    });
    return created;
  });
  return { token, details: tokenBody(row) };
}
