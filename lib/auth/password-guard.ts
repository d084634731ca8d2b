import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { insertAudit } from "@/db/queries/audit";
import type { DbOrTx } from "@/db/types";
import { RateLimitedError } from "@/lib/errors";
import type { AuthEnv } from "./auth-env";
import { clientAddressFrom } from "./client-address";
import { noteFailedSignIn, noteSignedIn, secondsToWait } from "./login-backoff";
import { consumeRateLimit } from "./rate-limit";
import { countSecurityEventInWindow, recordSecurityEvent } from "./security-events";

const SIGN_IN = "/sign-in/email";
/** Longer than any stored email may be; a longer one is refused by validation anyway. */
const MAX_EMAIL = 320;

function attemptOf(ctx: { body?: unknown; headers?: Headers; request?: Request }) {
  const body = (ctx.body ?? {}) as { email?: unknown };
  const email = typeof body.email === "string" ? body.email.trim().toLowerCase().slice(0, MAX_EMAIL) : "";
  return { email, address: clientAddressFrom(ctx.headers ?? ctx.request?.headers) };
}

const refuse = (retryAfterSeconds: number, message: string) =>
  new APIError("TOO_MANY_REQUESTS", { message }, { "retry-after": String(retryAfterSeconds) });

/**
 * Better Auth hooks around password sign-in, whichever door it comes through
 * (the sign-in server action or /api/auth/sign-in/email). Before the password
 * is checked: the per-address limit, then the account's growing delay for
 * this address (login-backoff.ts). Anonymous failures and refusals become
 * bounded security events (security-events.ts); audit_log keeps only
 * successful sign-ins, which are authenticated actions.
 */
export function signInGuard(db: DbOrTx, env: AuthEnv) {
  const before = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== SIGN_IN) return;
    const { email, address } = attemptOf(ctx);
    try {
      await consumeRateLimit(db, `login:address:${address}`, env.loginPerAddress);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      await countSecurityEventInWindow(db, "sign_in_rate_limited", { address, account: email }, env.loginPerAddress.windowSeconds);
      throw refuse(err.retryAfterSeconds, err.message);
    }
    const wait = email ? await secondsToWait(db, email, address, env.loginBackoff) : 0;
    if (wait > 0) {
      await countSecurityEventInWindow(db, "sign_in_delayed", { address, account: email }, env.loginPerAddress.windowSeconds);
      throw refuse(wait, `too many failed sign-ins for this account; try again in ${wait} s`);
    }
  });

  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== SIGN_IN) return;
    const { email, address } = attemptOf(ctx);
    const returned = ctx.context.returned;
    if (isAPIError(returned)) {
      if (returned.statusCode === 429) return;
      const detail = `${returned.statusCode} ${String(returned.body?.code ?? returned.message)}`;
      await recordSecurityEvent(db, "sign_in_failed", { address, account: email, detail });
      if (email && returned.statusCode === 401) await noteFailedSignIn(db, email, address, env.loginBackoff);
    } else if (ctx.context.newSession) {
      const user = ctx.context.newSession.user as { email: string; role?: string };
      await insertAudit(db, { actor: user.email, actorRole: user.role ?? "viewer", action: "auth.sign_in", target: `user:${user.email}`, details: { address } });
      await noteSignedIn(db, user.email, address);
    }
  });

  return { before, after };
}
