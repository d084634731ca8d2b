import { auditBy } from "@/db/queries/audit";
import { countEnabledAdmins, deleteSessionsOf, findUser, setUserRole } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { setUserRoleSchema } from "@/lib/validation/tokens";
import type { Actor } from "../actor";
import { authorize } from "../authorize";
import { guardDestructive } from "../recent-sign-in";

/**
 * Changes a user's role and ends their sessions, so the new role applies on
 * their next sign-in rather than riding on an old session. The last admin
 * cannot be demoted (nobody could manage users any more).
 */
export async function changeUserRole({ db, actor, userId, input }: { db: DbOrTx; actor: Actor; userId: string; input: { role: string; reason?: string } }) {
  authorize(actor, "admin", "unscoped");
  await guardDestructive(actor, db);
  const parsed = setUserRoleSchema.parse(input);
  return db.transaction(async (tx) => {
    const before = await findUser(tx, userId);
    if (!before) throw new NotFoundError(`user ${userId} does not exist`, "id");
    if (before.role === "admin" && parsed.role !== "admin" && (await countEnabledAdmins(tx)) <= 1) {
      throw new ConflictError("the last admin cannot be demoted; make someone else admin first");
    }
    const after = (await setUserRole(tx, userId, parsed.role))!;
    const signedOut = await deleteSessionsOf(tx, userId);
    await auditBy(tx, actor, {
      action: "user.role_change",
      target: `user:${after.email}`,
      affected: 1,
      reason: parsed.reason ?? null,
      details: { from: before.role, to: after.role, sessionsEnded: signedOut },
    });
    return { id: after.id, email: after.email, name: after.name, role: after.role };
  });
}
