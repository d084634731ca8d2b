import { hitWindow, pruneWindows } from "@/db/queries/auth-rate-limits";
import type { DbOrTx } from "@/db/types";
import { RateLimitedError } from "@/lib/errors";
import type { Actor } from "./actor";
import { authEnv } from "./auth-env";

/**
 * Fixed-window limits kept in Postgres (auth_rate_limits). Why not in memory:
 * nodes are stateless behind a load balancer, so a per-process counter gives
 * an attacker N budgets and forgets them on restart. Why not a new service:
 * these limits guard rare operations (sign-in, resets), one upsert each is
 * cheap, and weir already depends on Postgres. A fixed window can admit up to
 * twice the limit across a window boundary; that is acceptable here.
 */
export interface Limit {
  max: number;
  windowSeconds: number;
}

let sinceLastPrune = 0;

export async function consumeRateLimit(db: DbOrTx, key: string, limit: Limit): Promise<void> {
  const hit = await hitWindow(db, key, limit.windowSeconds);
  // Every few hundred hits, drop counters of windows that ended over a day ago.
  if (++sinceLastPrune >= 500) {
    sinceLastPrune = 0;
    pruneWindows(db, 86_400).catch((err: Error) => console.error(`[weir] pruning rate limits failed: ${err.message}`));
  }
  if (hit.hits > limit.max) throw new RateLimitedError(hit.resetInSeconds);
}

/** Bulk resets, TTL edits, token creation: a budget per actor, whichever door they come through. */
export async function limitDestructive(db: DbOrTx, actor: Actor): Promise<void> {
  await consumeRateLimit(db, `destructive:${actor.id}`, authEnv().destructivePerActor);
}
