import { getDb } from "@/db/client";
import { RateLimitedError } from "@/lib/errors";
import { authEnv } from "./auth-env";
import { DEMO_ADMIN_EMAIL, demoAdminPassword } from "./bootstrap";
import { getAuth } from "./better-auth";
import { safeNextPath } from "./safe-next";
import { signInWithPassword } from "./sign-in";

/**
 * The Better Auth endpoints the console may use over HTTP; everything else
 * Better Auth offers (sign-up, email flows, account deletion, social links) is
 * refused here, whatever its own configuration says.
 */
const ALLOWED = new Set(["/get-session", "/sign-in/email", "/sign-out", "/change-password", "/ok"]);
// Not /list-sessions nor /revoke-(other-)session(s): stored sessions carry only the hash of their
// token (hashed-sessions.ts), which those endpoints would hand out and match against as a token.

export async function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
  if (!ALLOWED.has(path)) return Response.json({ error: { code: "not_found", message: "no such auth endpoint" } }, { status: 404 });
  const auth = await getAuth(await getDb());
  return auth.handler(request);
}

/**
 * Demo mode only: signs the visitor in as the demo admin and sends them on.
 * It exists so that `npm run demo` opens straight onto data; the console says
 * so in its session bar. Outside demo mode it does not exist (404).
 */
export async function handleDemoSignIn(request: Request): Promise<Response> {
  const password = demoAdminPassword();
  if (!authEnv().demo || !password) return Response.json({ error: { code: "not_found", message: "not in demo mode" } }, { status: 404 });
  let setCookie: string[];
  try {
    ({ setCookie } = await signInWithPassword(await getDb(), { email: DEMO_ADMIN_EMAIL, password, headers: request.headers }));
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    return Response.json({ error: { code: err.code, message: err.message } }, { status: 429, headers: { "retry-after": String(err.retryAfterSeconds) } });
  }
  const next = safeNextPath(new URL(request.url).searchParams.get("next"));
  const headers = new Headers({ location: next, "cache-control": "no-store" });
  for (const cookie of setCookie) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
