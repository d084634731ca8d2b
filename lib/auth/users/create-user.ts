import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { auditBy } from "@/db/queries/audit";
import { findUserByEmail } from "@/db/queries/auth-users";
import { authAccounts, authUsers } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { ConflictError } from "@/lib/errors";
import { createUserSchema, type CreateUserInput } from "@/lib/validation/tokens";
import type { Actor, ConsoleRole } from "../actor";
import { authorize } from "../authorize";
import { guardDestructive } from "../recent-sign-in";

export interface CreatedUser {
  id: string;
  email: string;
  name: string;
  role: ConsoleRole;
  /** The generated password, when none was given: shown once. */
  password?: string;
}

/**
 * Creates a console user with a password credential (scrypt, through Better
 * Auth's hasher, so Better Auth verifies it at sign-in). Audited in the same
 * transaction. Admins only; the CLI and first-start bootstrap act as system.
 * Without a password, a strong one is generated and returned once.
 */
export async function createUser({ db, actor, input }: { db: DbOrTx; actor: Actor; input: CreateUserInput }): Promise<CreatedUser> {
  authorize(actor, "admin", "unscoped");
  await guardDestructive(actor, db);
  const parsed = createUserSchema.parse(input);
  const password = parsed.password ?? randomBytes(18).toString("base64url");
  const passwordHash = await hashPassword(password);
  const id = randomUUID();
  const name = parsed.name ?? parsed.email.split("@")[0]!;
  await db.transaction(async (tx) => {
    if (await findUserByEmail(tx, parsed.email)) throw new ConflictError(`a user with email ${parsed.email} already exists`);
    await tx.insert(authUsers).values({ id, email: parsed.email, name, role: parsed.role, emailVerified: true });
    await tx.insert(authAccounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash });
    await auditBy(tx, actor, {
      action: "user.create",
      target: `user:${parsed.email}`,
      affected: 1,
      details: { role: parsed.role },
    });
  });
  return { id, email: parsed.email, name, role: parsed.role, ...(parsed.password === undefined ? { password } : {}) };
}
