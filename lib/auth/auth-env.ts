/**
 * Auth settings read from the environment (see README "Configuration").
 * WEIR_PUBLIC_URL is the address people use; when it is https, session
 * cookies are Secure and carry the __Host- prefix.
 */
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** How long a console session lasts unless WEIR_SESSION_SECONDS says otherwise; the README quotes this. */
export const DEFAULT_SESSION_SECONDS = 8 * 3600;

export interface AuthEnv {
  publicUrl: string | undefined;
  secureCookies: boolean;
  /** A configured signing secret; when absent one is generated once and kept in the database. */
  secret: string | undefined;
  /** Re-authentication window for destructive operations, in seconds. */
  freshSeconds: number;
  sessionSeconds: number;
  /** Growing delay per account after failed sign-ins (lib/auth/login-backoff.ts). */
  loginBackoff: { freeFailures: number; maxDelaySeconds: number; quietSeconds: number };
  loginPerAddress: { max: number; windowSeconds: number };
  destructivePerActor: { max: number; windowSeconds: number };
  /** X-Forwarded-For entries to trust from the right (0: the socket address is the client). */
  trustedProxyHops: number;
  demo: boolean;
}

export function authEnv(): AuthEnv {
  const publicUrl = process.env.WEIR_PUBLIC_URL || undefined;
  if (publicUrl) new URL(publicUrl); // refuse a malformed URL at start rather than at the first sign-in
  const secret = process.env.WEIR_AUTH_SECRET || undefined;
  if (secret !== undefined && secret.length < 32) throw new Error("WEIR_AUTH_SECRET must be at least 32 characters");
  return {
    publicUrl,
    secureCookies: publicUrl?.startsWith("https://") ?? false,
    secret,
    freshSeconds: positiveInt("WEIR_REAUTH_AFTER_SECONDS", 15 * 60),
    sessionSeconds: positiveInt("WEIR_SESSION_SECONDS", DEFAULT_SESSION_SECONDS),
    loginBackoff: {
      freeFailures: positiveInt("WEIR_LOGIN_FREE_FAILURES", 5),
      maxDelaySeconds: positiveInt("WEIR_LOGIN_MAX_DELAY_SECONDS", 300),
      quietSeconds: 15 * 60,
    },
    loginPerAddress: { max: positiveInt("WEIR_LOGIN_LIMIT_PER_ADDRESS", 50), windowSeconds: 15 * 60 },
    destructivePerActor: { max: positiveInt("WEIR_DESTRUCTIVE_LIMIT", 30), windowSeconds: 10 * 60 },
    trustedProxyHops: Number(process.env.WEIR_TRUSTED_PROXY_HOPS ?? 0) || 0,
    demo: process.env.WEIR_DEMO === "1",
  };
}

/** Session cookie names: __Host- needs Secure, Path=/ and no Domain, which is what we set over https. */
export function sessionCookieName(env: Pick<AuthEnv, "secureCookies">): string {
  return `${env.secureCookies ? "__Host-" : ""}weir.session_token`;
}
