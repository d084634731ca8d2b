import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/auth-tokens";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "../actor";
import { authorize, filterAuthorized } from "../authorize";
import { tokenBody, type TokenBody } from "./token-actor";

/**
 * Tokens without their secrets (which weir never kept). Console users may read
 * them; the API route is admin-only. A scoped credential sees only the tokens
 * whose scopes are all within its own.
 */
export async function listApiTokensVerb({ db, actor, includeRevoked = false }: { db: DbOrTx; actor: Actor; includeRevoked?: boolean }): Promise<TokenBody[]> {
  authorize(actor, "read");
  const rows = await listApiTokens(db, { includeRevoked });
  return filterAuthorized(actor, "read", rows, (row) => ({ scopes: row })).map(tokenBody);
}

export type ConsoleToken = TokenBody & { expired: boolean };

/** The console's token list (revoked and expired ones included, so people can see what was withdrawn and when). */
export async function loadConsoleTokens(actor: Actor): Promise<ConsoleToken[]> {
  const now = Date.now();
  const tokens = await listApiTokensVerb({ db: await getDb(), actor, includeRevoked: true });
  return tokens.map((token) => ({ ...token, expired: token.expiresAt !== null && Date.parse(token.expiresAt) <= now }));
}
