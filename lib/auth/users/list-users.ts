import { getDb } from "@/db/client";
import { listUsers } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "../actor";
import { authorize } from "../authorize";

export async function listUsersVerb({ db, actor }: { db: DbOrTx; actor: Actor }) {
  authorize(actor, "admin", "unscoped");
  return (await listUsers(db)).map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role, disabled: u.disabled, createdAt: u.createdAt.toISOString() }));
}

/** The console's user list: admins only; anyone else gets null (the page says why). */
export async function loadConsoleUsers(actor: Actor) {
  return actor.role === "admin" ? listUsersVerb({ db: await getDb(), actor }) : null;
}
