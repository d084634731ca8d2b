import { NextResponse, type NextRequest } from "next/server";
import { authEnv, sessionCookieName } from "@/lib/auth/auth-env";
import { contentSecurityPolicy, newNonce, securityHeaders } from "@/lib/auth/csp";
import { UNSAFE_METHODS, originProblem } from "@/lib/auth/origin";
import { invalidUrlText } from "@/lib/validation/url-text";

/**
 * Runs before every console request (the machine API under /api/v1 never
 * reaches Next): refuses URLs that are not valid text and cross-site writes,
 * sends signed-out visitors to the sign-in page, and sets a per-request CSP
 * nonce plus security headers.
 * Pages, server actions and route handlers still check the session and role
 * themselves (requireConsoleActor): this is the first fence, not the only one.
 */
function isPublic(pathname: string): boolean {
  return pathname === "/sign-in" || pathname.startsWith("/sign-in/") || pathname.startsWith("/api/auth/");
}

function refuse(status: number, code: string, message: string, field?: string): NextResponse {
  return NextResponse.json({ error: { code, message, ...(field ? { field } : {}) } }, { status, headers: { "cache-control": "no-store" } });
}

export function proxy(request: NextRequest): NextResponse {
  const env = authEnv();
  const https = env.secureCookies;
  const { pathname, search } = request.nextUrl;

  // Pages hand path segments and query parameters to the store, which cannot hold a NUL.
  const invalid = invalidUrlText(pathname, search);
  if (invalid) return refuse(400, "invalid_request", invalid.message, invalid.field);

  if (UNSAFE_METHODS.has(request.method)) {
    const problem = originProblem(request.headers, env);
    if (problem) return refuse(403, "forbidden", `cross-site request refused: ${problem}`);
  }

  const signedOut = !request.cookies.has(sessionCookieName(env));
  // HEAD too: a page rendered for no one would fail on its missing session.
  if (signedOut && (request.method === "GET" || request.method === "HEAD") && !isPublic(pathname)) {
    if (pathname.startsWith("/api/")) return refuse(401, "unauthorized", "sign in to use the console");
    const target = request.nextUrl.clone();
    target.pathname = env.demo ? "/api/auth/demo" : "/sign-in";
    target.search = `?next=${encodeURIComponent(pathname + search)}`;
    return NextResponse.redirect(target);
  }

  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https });
  // Next reads the nonce from the request's CSP header and puts it on its own scripts.
  const forwarded = new Headers(request.headers);
  forwarded.set("x-nonce", nonce);
  forwarded.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set("content-security-policy", csp);
  for (const [name, value] of Object.entries(securityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
