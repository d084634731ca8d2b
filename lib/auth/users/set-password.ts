import { randomBytes } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { auditBy } from "@/db/queries/audit";
import { deleteSessionsOf } from "@/db/queries/auth-users";
import { authAccounts } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { resetPasswordSchema, type ResetPasswordInput } from "@/lib/validation/tokens";
import type { Actor } from "../actor";
import { authorize } from "../authorize";
import { guardDestructive } from "../recent-sign-in";
import { findUserByRef, type UserRef } from "./user-ref";


/**
 * Replaces a user's password and signs them out everywhere; a disabled user can sign in again.
 * Without a password, a strong one is generated and returned, to be shown once.
 * (CLI recovery, the demo's per-boot password, and an admin's reset from the console or API.)
 */
export async function setUserPassword({ db, actor, ...change }: { db: DbOrTx; actor: Actor; password?: string; reason?: string } & UserRef) {
  authorize(actor, "admin", "unscoped");
  await guardDestructive(actor, db);
  return replacePassword(db, actor, change);
}

async function replacePassword(db: DbOrTx, actor: Actor, { password, reason, ...ref }: { password?: string; reason?: string } & UserRef) {
  const generated = password === undefined;
  const newPassword = password ?? randomBytes(18).toString("base64url");
  if (newPassword.length < 12 || newPassword.length > 256) throw new ValidationError("password: 12 to 256 characters", "password");
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const user = await findUserByRef(tx, ref);
    if (user.email === actor.id) throw new ConflictError("change your own password on the Account page (it keeps your session)");
    const updated = await tx
      .update(authAccounts)
      .set({ password: passwordHash, updatedAt: sql`now()` })
      .where(and(eq(authAccounts.userId, user.id), eq(authAccounts.providerId, "credential")))
      .returning({ id: authAccounts.id });
    if (updated.length === 0) throw new NotFoundError(`user ${user.email} has no password credential`, "id");
    const sessionsEnded = await deleteSessionsOf(tx, user.id);
    await auditBy(tx, actor, { action: "user.password_reset", target: `user:${user.email}`, affected: 1, reason: reason ?? null, details: { sessionsEnded, generated } });
    return { id: user.id, email: user.email, password: generated ? newPassword : undefined };
  });
}

/** An admin's reset from the API, the console or the CLI, with a reason; the password is generated unless given. */
export async function resetUserPassword({ db, actor, input, ...ref }: { db: DbOrTx; actor: Actor; input: ResetPasswordInput } & UserRef) {
  authorize(actor, "admin", "unscoped");
  await guardDestructive(actor, db);
  const { password, reason } = resetPasswordSchema.parse(input);
  return replacePassword(db, actor, { ...ref, password, reason });
}
