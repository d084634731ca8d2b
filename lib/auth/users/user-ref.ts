import { findUser, findUserByEmail, type AuthUserRow } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import { NotFoundError } from "@/lib/errors";

/** Who: by email (the CLI, first start) or by id (the API and console). */
export type UserRef = { email: string; userId?: undefined } | { userId: string; email?: undefined };

export async function findUserByRef(db: DbOrTx, ref: UserRef): Promise<AuthUserRow> {
  const user = ref.email !== undefined ? await findUserByEmail(db, ref.email) : await findUser(db, ref.userId);
  if (user) return user;
  throw ref.email !== undefined ? new NotFoundError(`no user with email ${ref.email}`, "email") : new NotFoundError(`user ${ref.userId} does not exist`, "id");
}
