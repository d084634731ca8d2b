import { auditBy } from "@/db/queries/audit";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { assertKeyRef, toDate } from "./key-row";
import { keyStateStatement, type KeyState } from "./statements";

export interface DeleteKeyInput {
  scope: string;
  key: string;
  reason: string;
}

export interface DeleteKeyResult {
  scope: string;
  key: string;
  /** The attempt whose stored response was discarded. */
  attempt: number;
  completedAt: Date;
}

// Read and locked first, then dropped: two single-key statements, each routable to one shard on Citus.
const LOCK_COMPLETED_SQL = `
select attempt, completed_at, response_status from idempotency_keys
where scope = $1 and key = $2 and status = 'completed' and expires_at > statement_timestamp()
for update
`;

// The stored response is dropped and the key left as a released tombstone, so its attempt count goes on.
const DROP_RESPONSE_SQL = `
update idempotency_keys k set status = 'in_progress', locked_until = k.created_at,
  completed_at = null, response_status = null, response_body = null, response_headers = null
where k.scope = $1 and k.key = $2 and k.status = 'completed'
`;

/**
 * Forgets a completed key's response, so that the next begin (of any request) starts
 * the work again, as the next attempt: a holder of an older attempt stays fenced off.
 * An operator's repair, committed with its audit row. An in-progress key is released
 * instead, never deleted.
 */
export async function deleteCompletedKey({ db, actor, input }: { db: DbOrTx; actor: Actor; input: DeleteKeyInput }): Promise<DeleteKeyResult> {
  authorize(actor, "operate", { kind: "idempotencyScopes", id: input.scope });
  await guardDestructive(actor, db);
  assertKeyRef(input);
  try {
    return await db.transaction(async (tx) => {
      const values = [input.scope, input.key];
      const [gone] = await runRaw<{ attempt: number; completed_at: Date | string; response_status: number }>(tx, {
        name: "weir_idempotency_lock_completed_v1",
        text: LOCK_COMPLETED_SQL,
        values,
      });
      if (!gone) refuse(input, (await runRaw<KeyState>(tx, keyStateStatement(input.scope, input.key)))[0]);
      await runRaw(tx, { name: "weir_idempotency_drop_response_v1", text: DROP_RESPONSE_SQL, values });
      const attempt = Number(gone!.attempt);
      const completedAt = toDate(gone!.completed_at);
      await auditBy(tx, actor, {
        action: "idempotency_key.delete",
        target: `idempotency_scope:${input.scope}`,
        affected: 1,
        reason: input.reason,
        details: { key: input.key, attempt, completedAt: completedAt.toISOString(), responseStatus: Number(gone!.response_status) },
      });
      return { scope: input.scope, key: input.key, attempt, completedAt };
    });
  } catch (err) {
    throw asStoreError(err);
  }
}

function refuse(input: DeleteKeyInput, state: KeyState | undefined): never {
  if (!state) throw new NotFoundError(`idempotency key ${input.key} is not stored in scope ${input.scope}`, "key");
  throw new ConflictError(`idempotency key ${input.key} is in progress (attempt ${state.attempt}); release it instead of deleting it`, "conflict", {
    attempt: Number(state.attempt),
    status: state.status,
  });
}
