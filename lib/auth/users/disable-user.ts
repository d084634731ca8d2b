import { auditBy } from "@/db/queries/audit";
import { revokeTokensCreatedBy } from "@/db/queries/auth-tokens";
import { clearPassword, countEnabledAdmins, deleteSessionsOf, isUserDisabled } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import { ConflictError } from "@/lib/errors";
import { disableUserSchema, type DisableUserInput } from "@/lib/validation/tokens";
import type { Actor } from "../actor";
import { authorize } from "../authorize";
import { guardDestructive } from "../recent-sign-in";
import { forgetToken } from "../tokens/token-cache";
import { findUserByRef, type UserRef } from "./user-ref";

/**
 * Withdraws a user's console access: their password hash is cleared (sign-in refuses them as
 * it refuses a wrong password) and every session ends. Resetting their password enables them
 * again. Nobody disables themselves, and the last admin who can sign in stays.
 * The API tokens they created are service credentials that production may depend on, so they keep
 * working unless the admin asks for them to be revoked too (`revokeTokens`), in the same transaction.
 */
export async function disableUser({ db, actor, input, ...ref }: { db: DbOrTx; actor: Actor; input: DisableUserInput } & UserRef) {
  authorize(actor, "admin", "unscoped");
  await guardDestructive(actor, db);
  const { reason, revokeTokens } = disableUserSchema.parse(input);
  const done = await db.transaction(async (tx) => {
    const user = await findUserByRef(tx, ref);
    const userId = user.id;
    if (user.email === actor.id) throw new ConflictError("you cannot disable your own account; another admin can");
    const wasDisabled = await isUserDisabled(tx, userId);
    if (!wasDisabled && user.role === "admin" && (await countEnabledAdmins(tx)) <= 1) {
      throw new ConflictError("the last admin who can sign in cannot be disabled; make someone else admin first");
    }
    await clearPassword(tx, userId);
    const sessionsEnded = await deleteSessionsOf(tx, userId);
    const revoked = revokeTokens ? await revokeTokensCreatedBy(tx, user.email, actor.id) : [];
    const tokens = revoked.length > 0 ? { tokensRevoked: revoked.map((t) => ({ id: t.id, name: t.name })) } : {};
    await auditBy(tx, actor, { action: "user.disable", target: `user:${user.email}`, affected: 1, reason, details: { sessionsEnded, wasDisabled, ...tokens } });
    return { user: { id: user.id, email: user.email, name: user.name, role: user.role, disabled: true, tokensRevoked: revoked.length }, revoked };
  });
  // At once on this node; the others' caches drop them within their cache time, as for one revoke.
  for (const token of done.revoked) forgetToken(token.tokenHash);
  return done.user;
}
