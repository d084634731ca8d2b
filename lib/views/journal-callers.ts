import { findApiToken } from "@/db/queries/auth-tokens";
import type { DbOrTx } from "@/db/types";

/** A caller as the journal names it (`token:<id>`, a library-mode caller's name, a user's email) and, for a token, its name. */
export interface CallerView {
  id: string;
  /** The API token's name when the caller is a token that still exists; null otherwise. */
  name: string | null;
}

const TOKEN = "token:";
// Names are looked up one token at a time: a page names a handful of callers, never more than this.
const MAX_LOOKUPS = 50;

/** Names the API tokens among `callers` (a primary-key read per distinct token); others are shown as they are. */
export async function callerViews(db: DbOrTx, callers: readonly (string | null)[]): Promise<Map<string, CallerView>> {
  const distinct = [...new Set(callers.filter((c): c is string => c !== null))];
  const tokenIds = distinct.filter((c) => c.startsWith(TOKEN)).slice(0, MAX_LOOKUPS);
  const found = await Promise.all(tokenIds.map((caller) => findApiToken(db, caller.slice(TOKEN.length))));
  const names = new Map(tokenIds.map((caller, i) => [caller, found[i]?.name ?? null]));
  return new Map(distinct.map((id) => [id, { id, name: names.get(id) ?? null }]));
}
