import { and, asc, count, eq, getTableColumns, isNotNull, ne, sql } from "drizzle-orm";
import { authAccounts, authSessions, authUsers } from "../schema";
import type { DbOrTx } from "../types";

export type AuthUserRow = typeof authUsers.$inferSelect;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<AuthUserRow | undefined> {
  const [row] = await db.select().from(authUsers).where(eq(authUsers.email, email.toLowerCase()));
  return row;
}

export async function findUser(db: DbOrTx, id: string): Promise<AuthUserRow | undefined> {
  const [row] = await db.select().from(authUsers).where(eq(authUsers.id, id));
  return row;
}

/** A user can sign in while their password credential holds a hash; disabling clears it. */
// Qualified by hand: inside sql`` drizzle may render a column of the outer table unqualified, and "id" would be the account's.
const canSignIn = sql<boolean>`exists (select 1 from auth_accounts a where a.user_id = auth_users.id and a.provider_id = 'credential' and a.password is not null)`;

export async function listUsers(db: DbOrTx): Promise<(AuthUserRow & { disabled: boolean })[]> {
  const rows = await db
    .select({ ...getTableColumns(authUsers), canSignIn })
    .from(authUsers)
    .orderBy(asc(authUsers.email))
    .limit(1000);
  return rows.map(({ canSignIn: enabled, ...row }) => ({ ...row, disabled: !enabled }));
}

export async function isUserDisabled(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ canSignIn }).from(authUsers).where(eq(authUsers.id, id));
  return row ? !row.canSignIn : false;
}

/** Admins who can still sign in: the last of them may be neither demoted nor disabled. */
export async function countEnabledAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(authUsers).where(and(eq(authUsers.role, "admin"), canSignIn));
  return Number(row?.n ?? 0);
}

/** Clears a user's password hash: sign-in then refuses them as it refuses a wrong password. Returns whether one was set. */
export async function clearPassword(db: DbOrTx, userId: string): Promise<boolean> {
  const cleared = await db
    .update(authAccounts)
    .set({ password: null, updatedAt: sql`now()` })
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "credential"), isNotNull(authAccounts.password)))
    .returning({ id: authAccounts.id });
  return cleared.length > 0;
}

export async function countAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(authUsers).where(eq(authUsers.role, "admin"));
  return Number(row?.n ?? 0);
}

export async function setUserRole(db: DbOrTx, id: string, role: string): Promise<AuthUserRow | undefined> {
  const [row] = await db
    .update(authUsers)
    .set({ role, updatedAt: sql`now()` })
    .where(eq(authUsers.id, id))
    .returning();
  return row;
}

/** Signs a user out everywhere (after a role change or when access is withdrawn). */
export async function deleteSessionsOf(db: DbOrTx, userId: string): Promise<number> {
  const deleted = await db.delete(authSessions).where(eq(authSessions.userId, userId)).returning({ id: authSessions.id });
  return deleted.length;
}

/** Ends every session of a user but one (theirs, after they change their own password). */
export async function deleteOtherSessionsOf(db: DbOrTx, userId: string, keepSessionId: string): Promise<number> {
  const deleted = await db
    .delete(authSessions)
    .where(and(eq(authSessions.userId, userId), ne(authSessions.id, keepSessionId)))
    .returning({ id: authSessions.id });
  return deleted.length;
}
