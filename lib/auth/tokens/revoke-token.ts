import { auditBy } from "@/db/queries/audit";
import { findApiToken, revokeApiToken, type ApiTokenRow } from "@/db/queries/auth-tokens";
import type { DbOrTx } from "@/db/types";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { revokeTokenSchema, type RevokeTokenInput } from "@/lib/validation/tokens";
import type { Actor } from "../actor";
import { authorize, can } from "../authorize";
import { guardDestructive } from "../recent-sign-in";
import { isUnscoped } from "../scopes";
import { forgetToken } from "./token-cache";
import { tokenBody, type TokenBody } from "./token-actor";

/**
 * A scoped credential may revoke only tokens whose scopes are all within its
 * own. It hears the same 403 for a token it may not touch and for an unknown
 * id, so it cannot probe which ids exist.
 */
function assertMayRevoke(actor: Actor, id: string, existing: ApiTokenRow | undefined): ApiTokenRow {
  if (existing && can(actor, "admin", { scopes: existing })) return existing;
  if (!existing && isUnscoped(actor)) throw new NotFoundError(`token ${id} does not exist`, "id");
  throw new ForbiddenError(`token ${id} is outside your scope or does not exist`);
}

/** Revokes a token: at once on this node, within the cache time (10 s) on the others. Audited with the change. */
export async function revokeApiTokenVerb({ db, actor, input }: { db: DbOrTx; actor: Actor; input: RevokeTokenInput }): Promise<TokenBody> {
  authorize(actor, "admin");
  // Revoking changes who may call weir: the same guard as resets and TTL edits, for every door.
  await guardDestructive(actor, db);
  const parsed = revokeTokenSchema.parse(input);
  const existing = assertMayRevoke(actor, parsed.id, await findApiToken(db, parsed.id));
  const row = await db.transaction(async (tx) => {
    const revoked = await revokeApiToken(tx, existing.id, actor.id);
    if (!revoked) throw new ConflictError(`token ${parsed.id} is already revoked`);
    await auditBy(tx, actor, {
      action: "token.revoke",
      target: `token:${revoked.id}`,
      affected: 1,
      reason: parsed.reason,
      details: { name: revoked.name },
    });
    return revoked;
  });
  forgetToken(row.tokenHash);
  return tokenBody(row);
}
