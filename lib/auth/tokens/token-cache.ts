import { findApiTokenByHash, touchApiToken } from "@/db/queries/auth-tokens";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "../actor";
import { hashTokenSecret } from "./token-secret";
import { tokenActor } from "./token-actor";

/**
 * Token lookups sit on the hot path of every check, so results (valid or not)
 * are kept in-process for CACHE_MS: a revoked token stops working on this node
 * at once and on other nodes within CACHE_MS (10 s). Last use is written at
 * most once a minute per token, in the background, never on the request path.
 */
export const CACHE_MS = 10_000;
const MAX_ENTRIES = 10_000;
const TOUCH_EVERY_MS = 60_000;

interface Found {
  actor: Actor;
  tokenId: string;
  expiresAt: number | null;
}

interface Entry {
  until: number;
  resolved: Promise<Found | null>;
  /** The last answer the store gave, kept while a newer lookup runs: read without waiting by `presentedToken`. */
  settled?: Found | null;
}

const HOLDER = Symbol.for("weir.token-cache");
const state = ((globalThis as Record<symbol, { entries: Map<string, Entry>; touched: Map<string, number> }>)[HOLDER] ??= {
  entries: new Map(),
  touched: new Map(),
});

function lookup(db: DbOrTx, hash: string, now: number, previous: Entry | undefined): Entry {
  const entry: Entry = {
    until: now + CACHE_MS,
    settled: previous?.settled,
    resolved: findApiTokenByHash(db, hash).then((row) => {
      const found = row && !row.revokedAt ? { actor: tokenActor(row), tokenId: row.id, expiresAt: row.expiresAt?.getTime() ?? null } : null;
      entry.settled = found;
      return found;
    }),
  };
  // A store error must not be remembered: the next request asks again.
  entry.resolved.catch(() => state.entries.get(hash) === entry && state.entries.delete(hash));
  if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
  state.entries.set(hash, entry);
  return entry;
}

function noteUse(db: DbOrTx, tokenId: string, now: number): void {
  if (now - (state.touched.get(tokenId) ?? 0) < TOUCH_EVERY_MS) return;
  state.touched.set(tokenId, now);
  touchApiToken(db, tokenId).catch((err: Error) => console.error(`[weir] recording use of token ${tokenId} failed: ${err.message}`));
}

const hashes = new Map<string, string>();

/**
 * SHA-256 of a presented token, remembered (bounded, oldest out first): hashing
 * was the largest single cost of an authenticated check. Only the cache key is
 * remembered; whether the token is live is still decided by `entries` (CACHE_MS).
 */
function tokenHashOf(token: string): string {
  let hash = hashes.get(token);
  if (hash === undefined) {
    hash = hashTokenSecret(token);
    if (hashes.size >= MAX_ENTRIES) hashes.delete(hashes.keys().next().value!);
    hashes.set(token, hash);
  }
  return hash;
}

/** The actor of a live token; when it expired, for an expired one; null for an unknown or revoked one. */
export async function resolveToken(db: DbOrTx, token: string): Promise<{ actor: Actor } | { expiredAt: Date } | null> {
  const hash = tokenHashOf(token);
  const now = Date.now();
  const cached = state.entries.get(hash);
  const entry = cached && cached.until > now ? cached : lookup(db, hash, now, cached);
  const found = await entry.resolved;
  if (!found) return null;
  if (found.expiresAt !== null && found.expiresAt <= now) return { expiredAt: new Date(found.expiresAt) };
  noteUse(db, found.tokenId, now);
  return { actor: found.actor };
}

/** The actor of a live token, or null for an unknown, revoked or expired one. */
export async function actorForToken(db: DbOrTx, token: string): Promise<Actor | null> {
  const resolved = await resolveToken(db, token);
  return resolved && "actor" in resolved ? resolved.actor : null;
}

/**
 * A presented token as this node knows it without asking the store: its hash (a stable key for
 * the token) and the actor of its last lookup, if that found it live. Revocation and expiry are
 * still decided by `actorForToken`; this only tells the capacity gate whose request it is.
 */
export function presentedToken(token: string): { hash: string; actor?: Actor } {
  const hash = tokenHashOf(token);
  const settled = state.entries.get(hash)?.settled;
  return settled ? { hash, actor: settled.actor } : { hash };
}

/** Drops a token from this node's cache (after revocation). */
export function forgetToken(tokenHash: string): void {
  state.entries.delete(tokenHash);
}
