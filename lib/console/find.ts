import { findExactId, type FoundKey } from "@/db/queries/console-find";
import type { DbOrTx } from "@/db/types";

export const FIND_MAX_LENGTH = 512;

export interface FindResult {
  query: string;
  matches: (Omit<FoundKey, "at"> & { at: string; href: string })[];
  /** A number may also be a reset's id. */
  resetHref: string | null;
}

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

function hrefOf(found: FoundKey): string {
  const owner = encodeURIComponent(found.owner);
  if (found.kind === "key") return `/services/${owner}/key${q({ id: found.id })}`;
  if (found.kind === "claim") return `/groups/${owner}`;
  return `/idempotency/key${q({ scope: found.owner, key: found.id })}`;
}

/** Where an exact message id, claim id or idempotency key is stored, across every service, group and scope. */
export async function findAnything(db: DbOrTx, query: string): Promise<FindResult> {
  const found = await findExactId(db, query);
  return {
    query,
    matches: found.map((f) => ({ ...f, at: f.at.toISOString(), href: hrefOf(f) })),
    resetHref: /^\d{1,15}$/.test(query) ? `/reset/${query}` : null,
  };
}
