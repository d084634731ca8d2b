import type { DbOrTx } from "@/db/types";
import type { Actor } from "./actor";
import { getAuth } from "./better-auth";
import { isConsoleRole } from "./roles";

/**
 * The console user behind a request's session cookie, or null. A user whose
 * stored role is not a console role gets nothing (deny by default).
 */
export async function sessionActor(db: DbOrTx, headers: Headers, options: { refresh?: boolean } = {}): Promise<Actor | null> {
  const auth = await getAuth(db);
  const found = await auth.api.getSession({ headers, query: { disableRefresh: options.refresh === false } });
  if (!found) return null;
  const role = (found.user as { role?: unknown }).role;
  if (!isConsoleRole(role)) return null;
  return {
    id: found.user.email,
    role,
    via: "session",
    signedInAt: new Date(found.session.createdAt),
    userId: found.user.id,
  };
}
