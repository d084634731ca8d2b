import { listUsers } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "../actor";
import { authorize } from "../authorize";

export async function listUsersVerb({ db, actor }: { db: DbOrTx; actor: Actor }) {
  authorize(actor, "admin", "unscoped");
  return (await listUsers(db)).map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role, createdAt: u.createdAt.toISOString() }));
}
