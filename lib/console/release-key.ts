import { listAudit } from "@/db/queries/console-audit";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { releaseIdempotencyKey } from "@/lib/dedup/idempotency/operator-release";
import type { ReleaseKeyInput } from "@/lib/validation/console-idempotency";
import { RELEASE_ACTION } from "@/lib/views/idempotency";

/**
 * Releases a key through the one release verb and returns the id of the audit row it wrote, so
 * the page that confirms the release reads what happened from the log rather than from the URL.
 * Verb and lookup share a transaction: the newest release row this actor can see is its own.
 */
export async function releaseKeyWithReceipt({ db, actor, input }: { db: DbOrTx; actor: Actor; input: ReleaseKeyInput }): Promise<{ auditId: number }> {
  return db.transaction(async (tx) => {
    await releaseIdempotencyKey({ db: tx, actor, input });
    const [row] = await listAudit(tx, { action: RELEASE_ACTION, actor: actor.id, targetPrefix: `idempotency_scope:${input.scope}` }, 1);
    if (!row) throw new Error("the release wrote no audit row");
    return { auditId: row.id };
  });
}
