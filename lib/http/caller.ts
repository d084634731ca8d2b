import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Actor } from "@/lib/auth/actor";
import { authEnv, sessionCookieName } from "@/lib/auth/auth-env";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "@/lib/auth/client-address";
import { presentedToken } from "@/lib/auth/tokens/token-cache";
import { bearerTokenOf } from "@/lib/auth/tokens/token-secret";

/** Whose request this is, as far as can be told before any database work: the key its share is counted under. */
export interface Caller {
  key: string;
  /** The token's actor when this node has already looked the token up (its id and limits); absent otherwise. */
  actor?: Actor;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

function sessionCookieOf(cookie: string): string | undefined {
  const name = `${sessionCookieName(authEnv())}=`;
  const at = cookie.indexOf(name);
  if (at < 0) return undefined;
  const end = cookie.indexOf(";", at);
  return cookie.slice(at + name.length, end < 0 ? undefined : end);
}

/**
 * The credential a request presents, read from its headers alone: a bearer token (keyed by its
 * hash, so an unknown token is a caller of its own until authentication refuses it, before its
 * body is read), a console session, or else the client's address.
 */
export function callerOf(req: IncomingMessage): Caller {
  const authorization = req.headers.authorization;
  const token = authorization === undefined ? null : bearerTokenOf(authorization);
  if (token) {
    const presented = presentedToken(token);
    return presented.actor ? { key: `token:${presented.hash}`, actor: presented.actor } : { key: `token:${presented.hash}` };
  }
  const session = authorization === undefined && req.headers.cookie ? sessionCookieOf(req.headers.cookie) : undefined;
  if (session) return { key: `session:${sha256(session)}` };
  const stamped = req.headers[CLIENT_ADDRESS_HEADER];
  return { key: `address:${typeof stamped === "string" ? stamped : clientAddressOf(req, 0)}` };
}
