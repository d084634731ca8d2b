import { getSessionFromCtx } from "better-auth/api";
import { clientAddressFrom } from "./client-address";

/**
 * The Better Auth endpoints that verify a password (1.7), and whose account a guess is
 * against: sign-in names it in the body; the others act on the session's own user, so a
 * stolen cookie is no way around the limits sign-in has.
 */
export const PASSWORD_CHECKS = {
  "/sign-in/email": { account: "body", events: "sign_in", wrongPassword: 401 },
  "/change-password": { account: "session", events: "password_check", wrongPassword: 400 },
  "/verify-password": { account: "session", events: "password_check", wrongPassword: 400 },
  "/delete-user": { account: "session", events: "password_check", wrongPassword: 400 },
} as const;

export type PasswordCheck = (typeof PASSWORD_CHECKS)[keyof typeof PASSWORD_CHECKS];

export const CHANGE_PASSWORD = "/change-password";

/** Longer than any stored email may be; a longer one is refused by validation anyway. */
const MAX_EMAIL = 320;

export function passwordCheckOf(path: string): PasswordCheck | undefined {
  return Object.hasOwn(PASSWORD_CHECKS, path) ? PASSWORD_CHECKS[path as keyof typeof PASSWORD_CHECKS] : undefined;
}

type HookContext = Parameters<typeof getSessionFromCtx>[0] & { body?: unknown; headers?: Headers; request?: Request };

/** Who a password attempt is against (lower-cased email, "" when unknown) and from which address. */
export async function attemptOf(ctx: HookContext, check: PasswordCheck): Promise<{ email: string; address: string }> {
  const address = clientAddressFrom(ctx.headers ?? ctx.request?.headers);
  let email: unknown;
  if (check.account === "body") email = (ctx.body as { email?: unknown } | undefined)?.email;
  else email = (await getSessionFromCtx(ctx, { disableCookieCache: true, disableRefresh: true }))?.user.email;
  return { email: typeof email === "string" ? email.trim().toLowerCase().slice(0, MAX_EMAIL) : "", address };
}
