import { defaultOf, setting } from "@/lib/config";

/**
 * Auth settings read from the environment (lib/config; docs/configuration.md).
 * WEIR_PUBLIC_URL is the address people use; when it is https, session
 * cookies are Secure and carry the __Host- prefix.
 */
/** How long a console session lasts unless WEIR_SESSION_SECONDS says otherwise; the README quotes this. */
export const DEFAULT_SESSION_SECONDS = defaultOf("WEIR_SESSION_SECONDS");

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
  const publicUrl = setting("WEIR_PUBLIC_URL");
  return {
    publicUrl,
    secureCookies: publicUrl?.startsWith("https://") ?? false,
    secret: setting("WEIR_AUTH_SECRET"),
    freshSeconds: setting("WEIR_REAUTH_AFTER_SECONDS"),
    sessionSeconds: setting("WEIR_SESSION_SECONDS"),
    loginBackoff: {
      freeFailures: setting("WEIR_LOGIN_FREE_FAILURES"),
      maxDelaySeconds: setting("WEIR_LOGIN_MAX_DELAY_SECONDS"),
      quietSeconds: 15 * 60,
    },
    loginPerAddress: { max: setting("WEIR_LOGIN_LIMIT_PER_ADDRESS"), windowSeconds: 15 * 60 },
    destructivePerActor: { max: setting("WEIR_DESTRUCTIVE_LIMIT"), windowSeconds: 10 * 60 },
    trustedProxyHops: setting("WEIR_TRUSTED_PROXY_HOPS"),
    demo: setting("WEIR_DEMO"),
  };
}

/** Session cookie names: __Host- needs Secure, Path=/ and no Domain, which is what we set over https. */
export function sessionCookieName(env: Pick<AuthEnv, "secureCookies">): string {
  return `${env.secureCookies ? "__Host-" : ""}weir.session_token`;
}
