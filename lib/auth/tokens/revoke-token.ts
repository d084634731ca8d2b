import { insertAudit } from "@/db/queries/audit";
import { findApiToken, revokeApiToken } from "@/db/queries/auth-tokens";
import type { DbOrTx } from "@/db/types";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { revokeTokenSchema, type RevokeTokenInput } from "@/lib/validation/tokens";
import type { Actor } from "../actor";
import { authorize } from "../authorize";
import { forgetToken } from "./token-cache";
import { tokenBody, type TokenBody } from "./token-actor";

/** Revokes a token: at once on this node, within the cache time (10 s) on the others. Audited with the change. */
export async function revokeApiTokenVerb({ db, actor, input }: { db: DbOrTx; actor: Actor; input: RevokeTokenInput }): Promise<TokenBody> {
  authorize(actor, "admin");
  const parsed = revokeTokenSchema.parse(input);
  const row = await db.transaction(async (tx) => {
    const revoked = await revokeApiToken(tx, parsed.id, actor.id);
    if (!revoked) {
      const existing = await findApiToken(tx, parsed.id);
      if (!existing) throw new NotFoundError(`token ${parsed.id} does not exist`, "id");
      throw new ConflictError(`token ${parsed.id} is already revoked`);
    }
    await insertAudit(tx, {
      actor: actor.id,
      actorRole: actor.role,
      action: "token.revoke",
      target: `token:${revoked.id}`,
      affected: 1,
      reason: parsed.reason ?? null,
      details: { name: revoked.name },
    });
    return revoked;
  });
  forgetToken(row.tokenHash);
  return tokenBody(row);
}
