import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { insertAudit } from "@/db/queries/audit";
import type { DbOrTx } from "@/db/types";
import { RateLimitedError } from "@/lib/errors";
import type { AuthEnv } from "./auth-env";
import { clientAddressFrom } from "./client-address";
import { consumeRateLimit } from "./rate-limit";

const SIGN_IN = "/sign-in/email";

function attemptOf(ctx: { body?: unknown; headers?: Headers; request?: Request }) {
  const body = (ctx.body ?? {}) as { email?: unknown };
  const email = typeof body.email === "string" ? body.email.trim().toLowerCase().slice(0, 320) : "";
  return { email, address: clientAddressFrom(ctx.headers ?? ctx.request?.headers) };
}

/**
 * Better Auth hooks around password sign-in, whichever door it comes through
 * (the sign-in server action or /api/auth/sign-in/email): limit attempts per
 * account and per address before the password is checked, audit every outcome.
 */
export function signInGuard(db: DbOrTx, env: AuthEnv) {
  const audit = (action: string, email: string, address: string, details: Record<string, unknown> = {}) =>
    insertAudit(db, {
      actor: `address:${address}`,
      actorRole: "anonymous",
      action,
      target: `user:${email || "(none)"}`,
      details: { address, ...details },
    }).catch((err: Error) => console.error(`[weir] audit of ${action} failed: ${err.message}`));

  const before = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== SIGN_IN) return;
    const { email, address } = attemptOf(ctx);
    try {
      await consumeRateLimit(db, `login:address:${address}`, env.loginPerAddress);
      await consumeRateLimit(db, `login:account:${email}`, env.loginPerAccount);
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      await audit("auth.sign_in_rate_limited", email, address, { retryAfterSeconds: err.retryAfterSeconds });
      throw new APIError("TOO_MANY_REQUESTS", { message: err.message }, { "retry-after": String(err.retryAfterSeconds) });
    }
  });

  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== SIGN_IN) return;
    const { email, address } = attemptOf(ctx);
    const returned = ctx.context.returned;
    if (isAPIError(returned)) {
      if (returned.statusCode === 429) return;
      await audit("auth.sign_in_failed", email, address, { status: returned.statusCode, reason: returned.body?.code ?? returned.message });
    } else if (ctx.context.newSession) {
      const user = ctx.context.newSession.user as { email: string; role?: string };
      await insertAudit(db, { actor: user.email, actorRole: user.role ?? "viewer", action: "auth.sign_in", target: `user:${user.email}`, details: { address } });
    }
  });

  return { before, after };
}
