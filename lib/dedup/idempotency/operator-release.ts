import { auditBy } from "@/db/queries/audit";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { release } from "./release";
import { NotFoundError } from "@/lib/errors";
import { releaseKeySchema, type ReleaseKeyInput } from "@/lib/validation/console-idempotency";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";

/** The audit row of an operator's release, by which the console confirms it afterwards. */
export const RELEASE_ACTION = "idempotency_key.release";
export const releaseTarget = (scope: string) => `idempotency_scope:${scope}`;

/**
 * Releases a stuck in-progress idempotency key so a retry can start it again.
 * Only the attempt the operator saw is released (a live retry that took it
 * over is left alone), and the release commits with its audit row, whose id it answers (the
 * console confirms a release from that row, not from what a URL says).
 */
export async function releaseIdempotencyKey({
  db,
  actor,
  input,
}: {
  db: DbOrTx;
  actor: Actor;
  input: ReleaseKeyInput;
}): Promise<{ released: true; auditId: number }> {
  authorize(actor, "release");
  await guardDestructive(actor, db);
  const { scope, key, attempt, reason } = releaseKeySchema.parse(input);
  authorize(actor, "release", { kind: "idempotencyScopes", id: scope });
  try {
    return await db.transaction(async (tx) => {
      const { released } = await release(tx, { scope, key, attempt });
      if (!released) throw new NotFoundError(`idempotency key ${key} is no longer stored; nothing to release`, "key");
      const auditId = await auditBy(tx, actor, {
        action: RELEASE_ACTION,
        target: releaseTarget(scope),
        affected: 1,
        reason,
        details: { key, attempt },
      });
      return { released: true as const, auditId };
    });
  } catch (err) {
    throw asStoreError(err);
  }
}
