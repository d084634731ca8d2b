import { hashPassword } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { auditBy } from "@/db/queries/audit";
import { deleteSessionsOf, findUserByEmail } from "@/db/queries/auth-users";
import { authAccounts } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { NotFoundError, ValidationError } from "@/lib/errors";
import type { Actor } from "../actor";
import { authorize } from "../authorize";

/** Replaces a user's password and signs them out everywhere (CLI recovery and the demo's per-boot password). */
export async function setUserPassword({ db, actor, email, password }: { db: DbOrTx; actor: Actor; email: string; password: string }): Promise<void> {
  authorize(actor, "admin", "unscoped");
  if (password.length < 12 || password.length > 256) throw new ValidationError("password: 12 to 256 characters", "password");
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user) throw new NotFoundError(`no user with email ${email}`, "email");
    await tx
      .update(authAccounts)
      .set({ password: passwordHash, updatedAt: sql`now()` })
      .where(and(eq(authAccounts.userId, user.id), eq(authAccounts.providerId, "credential")));
    await deleteSessionsOf(tx, user.id);
    await auditBy(tx, actor, { action: "user.password_reset", target: `user:${user.email}`, affected: 1 });
  });
}
