import { runRaw } from "@/db/raw";
import { routedDb } from "@/db/shard-router";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { decided, type DecisionOrigin } from "@/lib/telemetry/decisions";
import { assertAttempt, assertKeyRef } from "./key-row";
import { notifyKeyChanged } from "./notify";
import { refuseStale } from "./refusal";
import { keyStateStatement, RELEASED, type KeyState } from "./statements";

export interface ReleaseInput {
  scope: string;
  key: string;
  /** When given, only a key started for this request is released. */
  requestHash?: string;
  /** The attempt `begin` returned (the fencing token): only its own lock is released, never a taker's. */
  attempt: number;
  /** Who asked (the journal's caller, request id and trace); set by the door. */
  origin?: DecisionOrigin;
}

export interface ReleaseResult {
  /** False when there was nothing to release (absent or expired key): releasing is idempotent. */
  released: boolean;
}

// The key becomes a tombstone (see RELEASED) until it expires: the attempt count survives the release.
const RELEASE_SQL = `
update idempotency_keys k set locked_until = k.created_at
where k.scope = $1 and k.key = $2 and k.status = 'in_progress' and not ${RELEASED("k")}
  and ($3::text is null or k.request_hash = decode($3, 'hex'))
  and k.attempt = $4::int and k.expires_at > statement_timestamp()
returning k.waiters
`;

/**
 * Gives an in-progress key back after the work failed, so that a retry (or a waiting
 * caller), of any request, can start it again, as the next attempt.
 */
export async function release(db: DbOrTx, input: ReleaseInput): Promise<ReleaseResult> {
  const result = await releaseKey(db, input);
  decided({
    mode: "idempotency_release",
    subject: input.scope,
    decision: result.released ? "released" : "not_released",
    key: input.key,
    version: input.attempt,
    origin: input.origin,
  });
  return result;
}

async function releaseKey(anyDb: DbOrTx, input: ReleaseInput): Promise<ReleaseResult> {
  assertKeyRef(input);
  // Straight to the key's worker when the handle routes (db/shard-router.ts).
  const db = routedDb(anyDb, "idempotency_keys", input.key);
  assertAttempt(input.attempt);
  let state: KeyState | undefined;
  try {
    const [gone] = await runRaw<{ waiters: boolean }>(db, {
      name: "weir_idempotency_release_v3",
      text: RELEASE_SQL,
      values: [input.scope, input.key, input.requestHash ?? null, input.attempt],
    });
    if (gone) {
      if (gone.waiters) await notifyKeyChanged(db, input.scope, input.key);
      return { released: true };
    }
    [state] = await runRaw<KeyState>(db, keyStateStatement(input.scope, input.key));
  } catch (err) {
    throw asStoreError(err);
  }
  if (!state) return { released: false };
  refuseStale(input, state, "release");
  return { released: false };
}
