import type { IncomingMessage } from "node:http";
import { hotDb, type Store } from "@/db/client";
import type { Actor } from "@/lib/auth/actor";
import { authEnv, sessionCookieName } from "@/lib/auth/auth-env";
import { UNSAFE_METHODS, originProblem } from "@/lib/auth/origin";
import { sessionActor } from "@/lib/auth/session-actor";
import { resolveToken } from "@/lib/auth/tokens/token-cache";
import { bearerTokenOf } from "@/lib/auth/tokens/token-secret";
import { ForbiddenError, TokenExpiredError, UnauthorizedError } from "@/lib/errors";

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/**
 * Who is calling the machine API: a bearer token (services, automation) or,
 * for people using the API from the console's origin, the console session
 * cookie. Cookie-authenticated writes must come from our own origin, since
 * browsers attach cookies to cross-site requests too.
 */
export async function authenticate(req: IncomingMessage, getStore: () => Promise<Store>): Promise<Actor> {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const token = bearerTokenOf(authorization);
    if (!token) throw new UnauthorizedError("the Authorization header must be \"Bearer weir_...\"");
    const resolved = await resolveToken(hotDb(await getStore()), token);
    if (!resolved) throw new UnauthorizedError("the API token is unknown or revoked");
    if ("expiredAt" in resolved) throw new TokenExpiredError(resolved.expiredAt);
    return resolved.actor;
  }
  const env = authEnv();
  if (req.headers.cookie?.includes(sessionCookieName(env))) {
    const headers = headersOf(req);
    const problem = UNSAFE_METHODS.has(req.method ?? "") ? originProblem(headers, env) : null;
    if (problem) throw new ForbiddenError(`cross-site request refused: ${problem}`);
    const actor = await sessionActor((await getStore()).db, headers, { refresh: false });
    if (actor) return actor;
    throw new UnauthorizedError("the console session is invalid or expired; sign in again");
  }
  throw new UnauthorizedError("send an API token: Authorization: Bearer weir_...");
}
