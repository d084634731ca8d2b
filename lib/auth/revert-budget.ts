import type { DbOrTx } from "@/db/types";
import type { Actor } from "./actor";
import { consumeRateLimit, type Limit } from "./rate-limit";
import { setting } from "@/lib/config";

/** Reverts per credential per 10 min (WEIR_REVERT_LIMIT, 600): each writes an audit row, which is never deleted. */
export function revertLimitFromEnv(): Limit {
  return { max: setting("WEIR_REVERT_LIMIT"), windowSeconds: 600 };
}

/**
 * A revert is a machine action a service token may take, and each one is audited: without a
 * budget one token could grow the append-only audit log by a hundred rows a second. Past it,
 * RateLimitedError (429 with Retry-After). In-process actors (library mode, CLI) are not limited.
 */
export async function limitReverts(db: DbOrTx, actor: Actor): Promise<void> {
  if (actor.via) await consumeRateLimit(db, `revert:${actor.id}`, revertLimitFromEnv());
}
