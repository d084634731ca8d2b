import { auditBy } from "@/db/queries/audit";
import { findStuckKeys, releaseStuckKeys } from "@/db/queries/console-idempotency";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { UnprocessableError } from "@/lib/errors";
import { scopeIdSchema } from "@/lib/validation/idempotency";
import { releaseStuckSchema, type ReleaseStuckInput } from "@/lib/validation/console-idempotency";
import { notifyKeyChanged } from "./notify";

export const RELEASE_STUCK_ACTION = "idempotency_scope.release_stuck";
/** Above this many keys the scope id must be typed to confirm, as a reset's subject is. */
export const CONFIRM_THRESHOLD = 100;
const SAMPLE_SIZE = 20;

export interface StuckPreview {
  scope: string;
  count: number;
  /** The keys whose lock ran out first. */
  sample: { key: string; attempt: number; createdAt: string; lockedUntil: string }[];
  /** The word to type when `count` is above the threshold; null when no confirmation is needed. */
  confirmWord: string | null;
}

/** Dry run: a scope's stuck keys (in progress, lock run out: the caller died), counted, with the oldest. Reads only. */
export async function previewStuckKeys({ db, actor, scope }: { db: DbOrTx; actor: Actor; scope: string }): Promise<StuckPreview> {
  authorize(actor, "operate");
  const id = scopeIdSchema.parse(scope);
  authorize(actor, "operate", { kind: "idempotencyScopes", id });
  try {
    const { count, sample } = await findStuckKeys(db, id, SAMPLE_SIZE);
    return {
      scope: id,
      count,
      sample: sample.map((row) => ({ key: row.key, attempt: row.attempt, createdAt: row.createdAt.toISOString(), lockedUntil: row.lockedUntil.toISOString() })),
      confirmWord: count > CONFIRM_THRESHOLD ? id : null,
    };
  } catch (err) {
    throw asStoreError(err);
  }
}

/**
 * Releases every stuck key of a scope at once, as an operator releases one: each becomes free for
 * a retry to start as its next attempt. The count is taken again inside the transaction, so the
 * typed confirmation guards what really runs. One audit row names how many and the first keys.
 * There is no undo: a retry may take a released key at once, and its dead caller is not coming back.
 * An operator's action (service tokens release only the keys they began, one by one).
 */
export async function releaseStuck({ db, actor, input, notifyDb = db }: { db: DbOrTx; actor: Actor; input: ReleaseStuckInput; notifyDb?: DbOrTx }) {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const { scope, reason, confirmation } = releaseStuckSchema.parse(input);
  authorize(actor, "operate", { kind: "idempotencyScopes", id: scope });
  try {
    const result = await db.transaction(async (tx) => {
      const { count } = await findStuckKeys(tx, scope, 0);
      // Nothing stuck (any more) is no error: the keys are free either way, and nothing is audited.
      if (count === 0) return { released: [], auditId: null };
      if (count > CONFIRM_THRESHOLD && confirmation?.trim() !== scope) {
        throw new UnprocessableError(`this releases ${count} keys: type "${scope}" to confirm`, "unprocessable", { planned: count, subject: scope }, "confirmation");
      }
      const released = await releaseStuckKeys(tx, scope);
      const auditId = await auditBy(tx, actor, {
        action: RELEASE_STUCK_ACTION,
        target: `idempotency_scope:${scope}`,
        affected: released.length,
        reason,
        details: { planned: count, released: released.length, keys: released.slice(0, SAMPLE_SIZE).map((k) => ({ key: k.key, attempt: k.attempt })) },
      });
      return { released, auditId };
    });
    // Callers waiting on one of these keys may start it now; a lost wake-up only means they wait out their poll.
    // Sent where the waiters listen: with WEIR_CITUS_ROUTE_URLS a worker (notifyDb), not the coordinator.
    for (const k of result.released) if (k.waiters) await notifyKeyChanged(notifyDb, scope, k.key).catch(() => undefined);
    return { scope, released: result.released.length, auditId: result.auditId };
  } catch (err) {
    throw asStoreError(err);
  }
}
