import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { insertAudit } from "@/db/queries/audit";
import { deleteOtherSessionsOf } from "@/db/queries/auth-users";
import type { DbOrTx } from "@/db/types";
import { RateLimitedError } from "@/lib/errors";
import type { AuthEnv } from "./auth-env";
import { clientAddressFrom } from "./client-address";
import { hideSessionToken } from "./hide-session-token";
import { noteFailedSignIn, noteSignedIn, secondsToWait } from "./login-backoff";
import { attemptOf, CHANGE_PASSWORD, passwordCheckOf, type PasswordCheck } from "./password-checks";
import { consumeRateLimit } from "./rate-limit";
import { countSecurityEventInWindow, recordSecurityEvent } from "./security-events";

const refuse = (retryAfterSeconds: number, message: string) =>
  new APIError("TOO_MANY_REQUESTS", { message }, { "retry-after": String(retryAfterSeconds) });

type Ctx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

function wrongPassword(returned: APIError, check: PasswordCheck): boolean {
  if (returned.statusCode !== check.wrongPassword) return false;
  return check.account === "body" || returned.body?.code === "INVALID_PASSWORD";
}

type SessionUser = { email: string; role?: string };

/** What a finished password check leaves behind: a security event and a longer wait, or a cleared wait and the audit row. */
async function noteOutcome(db: DbOrTx, env: AuthEnv, ctx: Ctx, check: PasswordCheck): Promise<void> {
  const returned = ctx.context.returned;
  if (isAPIError(returned)) {
    if (returned.statusCode === 429) return;
    const { email, address } = await attemptOf(ctx, check);
    const detail = `${ctx.path} ${returned.statusCode} ${String(returned.body?.code ?? returned.message)}`;
    await recordSecurityEvent(db, `${check.events}_failed`, { address, account: email, detail });
    if (email && wrongPassword(returned, check)) await noteFailedSignIn(db, email, address, env.loginBackoff);
    return;
  }
  const address = clientAddressFrom(ctx.headers ?? ctx.request?.headers);
  if (ctx.path === CHANGE_PASSWORD) {
    // The session that changed the password stays; every other one of the user ends.
    const current = await getSessionFromCtx(ctx, { disableCookieCache: true, disableRefresh: true });
    if (!current) return;
    const user = current.user as SessionUser;
    await db.transaction(async (tx) => {
      const sessionsEnded = await deleteOtherSessionsOf(tx, current.user.id, current.session.id);
      const details = { address, otherSessionsEnded: true, sessionsEnded };
      await insertAudit(tx, { actor: user.email, actorRole: user.role ?? "viewer", action: "auth.password_change", target: `user:${user.email}`, details });
    });
    await noteSignedIn(db, user.email, address);
    return;
  }
  const user = (ctx.context.newSession?.user ?? ctx.context.session?.user) as SessionUser | undefined;
  if (!user) return;
  if (check.account === "body") await insertAudit(db, { actor: user.email, actorRole: user.role ?? "viewer", action: "auth.sign_in", target: `user:${user.email}`, details: { address } });
  await noteSignedIn(db, user.email, address);
}

/**
 * Better Auth hooks around every endpoint that verifies a password (password-checks.ts),
 * whichever door it comes through (a server action or /api/auth/*). Before the password is
 * checked: the per-address limit, then the account's growing delay for this address
 * (login-backoff.ts), shared by sign-in and the others. Failures and refusals become bounded
 * security events (security-events.ts). A password change always ends the user's other
 * sessions (this one is kept) and is audited. No JSON answer carries the raw session token (hide-session-token.ts).
 */
export function passwordGuard(db: DbOrTx, env: AuthEnv) {
  const before = createAuthMiddleware(async (ctx) => {
    const check = passwordCheckOf(ctx.path);
    if (!check) return;
    const { email, address } = await attemptOf(ctx, check);
    const window = env.loginPerAddress.windowSeconds;
    try {
      await consumeRateLimit(db, `login:address:${address}`, env.loginPerAddress);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      await countSecurityEventInWindow(db, `${check.events}_rate_limited`, { address, account: email }, window);
      throw refuse(err.retryAfterSeconds, err.message);
    }
    const wait = email ? await secondsToWait(db, email, address, env.loginBackoff) : 0;
    if (wait > 0) {
      await countSecurityEventInWindow(db, `${check.events}_delayed`, { address, account: email }, window);
      throw refuse(wait, `too many failed password checks for this account; try again in ${wait} s`);
    }
    // Better Auth's own revocation would swap this browser's session for a new one, and a page
    // rendering meanwhile would read the old one as signed out: other sessions end in `after`.
    if (ctx.path === CHANGE_PASSWORD) return { context: { body: { ...(ctx.body as object), revokeOtherSessions: false } } };
  });

  const after = createAuthMiddleware(async (ctx) => {
    const check = passwordCheckOf(ctx.path);
    if (check) await noteOutcome(db, env, ctx, check);
    const hidden = hideSessionToken(ctx.path, ctx.context.returned);
    if (hidden !== undefined) return ctx.json(hidden);
  });

  return { before, after };
}
