import { getDb } from "@/db/client";
import { liveTokenCountsByCreator } from "@/db/queries/auth-tokens";
import { listUsers } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "../actor";
import { authorize } from "../authorize";

/** Every user, with the live API tokens they created (which disabling them leaves working unless revoked too). */
export async function listUsersVerb({ db, actor }: { db: DbOrTx; actor: Actor }) {
  authorize(actor, "admin", "unscoped");
  const [users, liveTokens] = await Promise.all([listUsers(db), liveTokenCountsByCreator(db)]);
  return users.map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role, disabled: u.disabled, createdAt: u.createdAt.toISOString(), liveTokens: liveTokens.get(u.email) ?? 0 }));
}

/** The console's user list: admins only; anyone else gets null (the page says why). */
export async function loadConsoleUsers(actor: Actor) {
  return actor.role === "admin" ? listUsersVerb({ db: await getDb(), actor }) : null;
}
