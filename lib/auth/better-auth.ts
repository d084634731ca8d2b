import { randomBytes } from "node:crypto";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getOrCreateSetting } from "@/db/queries/auth-settings";
import { authAccounts, authSessions, authUsers, authVerifications } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { PASSWORD_LENGTH } from "@/lib/validation/account";
import { authEnv, type AuthEnv } from "./auth-env";
import { CLIENT_ADDRESS_HEADER } from "./client-address";
import { withHashedSessionTokens } from "./hashed-sessions";
import { allowedOriginsFor } from "./origin";
import { passwordGuard } from "./password-guard";
import { setting } from "@/lib/config";

/**
 * Console sign-in is Better Auth over weir's own drizzle handle (node-postgres
 * or PGlite): users, scrypt password hashes and sessions live in auth_* tables.
 * Sign-up is off: admins create users (CLI, env on first start, or the API).
 */
export function createWeirAuth(db: DbOrTx, secret: string, env: AuthEnv = authEnv()) {
  const guard = passwordGuard(db, env);
  const drizzle = drizzleAdapter(db, {
    provider: "pg",
    schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications },
  });
  return betterAuth({
    appName: "weir",
    baseURL: env.publicUrl ?? `http://127.0.0.1:${setting("PORT")}`,
    secret,
    // Sessions are stored by the SHA-256 of their token (hashed-sessions.ts).
    database: (options: BetterAuthOptions) => withHashedSessionTokens(drizzle(options)),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: PASSWORD_LENGTH.min, maxPasswordLength: PASSWORD_LENGTH.max },
    user: {
      additionalFields: { role: { type: "string", required: false, defaultValue: "viewer", input: false } },
    },
    session: { expiresIn: env.sessionSeconds, updateAge: 3600, freshAge: env.freshSeconds },
    // Login and destructive operations are limited by weir's Postgres-backed limiter (lib/auth/rate-limit.ts),
    // per account and per address, shared by every node; Better Auth's own limiter is per IP and per node.
    rateLimit: { enabled: false },
    trustedOrigins: (request) => allowedOriginsFor(request?.headers, env),
    advanced: {
      // __Host- needs Secure, Path=/ and no Domain: only over https (see auth-env.ts).
      useSecureCookies: false,
      cookiePrefix: env.secureCookies ? "__Host-weir" : "weir",
      defaultCookieAttributes: { secure: env.secureCookies, httpOnly: true, sameSite: "lax", path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    hooks: { before: guard.before, after: guard.after },
    telemetry: { enabled: false },
    // Failed password checks are security events (password-guard.ts); Better Auth need not log each one too.
    logger: { level: "error" },
    plugins: [nextCookies()],
  });
}

export type WeirAuth = ReturnType<typeof createWeirAuth>;

// One instance per database handle; the HTTP layer and Next's bundles share it through globalThis.
const HOLDER = Symbol.for("weir.auth");
const instances = ((globalThis as Record<symbol, WeakMap<object, Promise<WeirAuth>>>)[HOLDER] ??= new WeakMap());

async function secretFor(db: DbOrTx, env: AuthEnv): Promise<string> {
  // A configured secret is never written to the database, so a copy of it cannot sign cookies.
  if (env.secret) return env.secret;
  // Without one, nodes must share the signing secret; the first one to start creates it.
  return getOrCreateSetting(db, "session_secret", () => randomBytes(32).toString("base64url"));
}

export function getAuth(db: DbOrTx): Promise<WeirAuth> {
  let pending = instances.get(db);
  if (!pending) {
    const env = authEnv();
    pending = secretFor(db, env).then((secret) => createWeirAuth(db, secret, env));
    pending.catch(() => instances.delete(db));
    instances.set(db, pending);
  }
  return pending;
}
