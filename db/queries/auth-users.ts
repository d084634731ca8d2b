import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { authSessions, authUsers } from "../schema";
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

export async function listUsers(db: DbOrTx): Promise<AuthUserRow[]> {
  return db.select().from(authUsers).orderBy(asc(authUsers.email)).limit(1000);
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
