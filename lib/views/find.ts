import { findExactId, type FoundKey } from "@/db/queries/console-find";
import { findByHash, type HashScan } from "@/db/queries/console-find-hash";
import type { DbOrTx } from "@/db/types";

export const FIND_MAX_LENGTH = 512;

export interface FindResult {
  query: string;
  matches: (Omit<FoundKey, "at"> & { at: string; href: string; by: "id" | "hash" })[];
  /** For 64 hex digits: which bounded slice the lookup by stored or request hash compared. */
  hashScan: Omit<HashScan, "matches"> | null;
  /** A number may also be a reset's id. */
  resetHref: string | null;
}

/** A structural or request hash as weir shows it: 64 hex digits. */
const HASH_HEX = /^[0-9a-f]{64}$/i;

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

function hrefOf(found: FoundKey): string {
  const owner = encodeURIComponent(found.owner);
  if (found.kind === "key") return `/services/${owner}/key${q({ id: found.id })}`;
  if (found.kind === "claim") return `/groups/${owner}${q({ claim: found.id })}`;
  return `/idempotency/key${q({ scope: found.owner, key: found.id })}`;
}

/**
 * Where an exact message id, claim id or idempotency key is stored, across every service, group
 * and scope; for 64 hex digits also which recent keys hold that stored or request hash.
 */
export async function findAnything(db: DbOrTx, query: string): Promise<FindResult> {
  const [found, hashed] = await Promise.all([findExactId(db, query), HASH_HEX.test(query) ? findByHash(db, query.toLowerCase()) : null]);
  const view = (by: "id" | "hash") => (f: FoundKey) => ({ ...f, at: f.at.toISOString(), href: hrefOf(f), by });
  return {
    query,
    matches: [...found.map(view("id")), ...(hashed?.matches ?? []).map(view("hash"))],
    hashScan: hashed && { keysPerService: hashed.keysPerService, services: hashed.services, idempotencyKeys: hashed.idempotencyKeys },
    resetHref: /^\d{1,15}$/.test(query) ? `/reset/${query}` : null,
  };
}
