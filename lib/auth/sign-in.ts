import { isAPIError } from "better-auth/api";
import { auditBy } from "@/db/queries/audit";
import type { DbOrTx } from "@/db/types";
import { UnauthorizedError } from "@/lib/errors";
import { getAuth } from "./better-auth";
import { rateLimitedFrom } from "./retry-after";
import { sessionActor } from "./session-actor";

/**
 * Password sign-in through Better Auth. Limits and audit run in its hooks
 * (password-guard.ts); here its errors become weir's: 429 with the wait, and
 * one message for unknown email and wrong password alike. Inside Next the
 * nextCookies plugin sets the session cookie; the Set-Cookie values are also
 * returned for callers outside Next (tests, scripts).
 */
export async function signInWithPassword(db: DbOrTx, input: { email: string; password: string; headers: Headers }): Promise<{ setCookie: string[] }> {
  const auth = await getAuth(db);
  try {
    const { headers } = await auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: input.headers,
      returnHeaders: true,
    });
    return { setCookie: headers.getSetCookie() };
  } catch (err) {
    if (!isAPIError(err)) throw err;
    if (err.statusCode === 429) throw rateLimitedFrom(err);
    if (err.statusCode < 500) throw new UnauthorizedError("wrong email or password");
    throw err;
  }
}

/** Ends the session in the request's cookie, if any (Better Auth clears the cookie through nextCookies), and audits it. */
export async function signOutSession(db: DbOrTx, headers: Headers): Promise<{ setCookie: string[] }> {
  const auth = await getAuth(db);
  const actor = await sessionActor(db, headers, { refresh: false });
  const result = await auth.api.signOut({ headers, returnHeaders: true });
  if (actor) await auditBy(db, actor, { action: "auth.sign_out", target: `user:${actor.id}` });
  return { setCookie: result.headers.getSetCookie() };
}
