import { runRaw } from "@/db/raw";
import { routedDb } from "@/db/shard-router";
import { DEFAULT_RETENTION_SECONDS } from "@/db/schema/idempotency-scopes";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ValidationError } from "@/lib/errors";
import { decided } from "@/lib/telemetry/decisions";
import { assertAttempt, assertKeyRef, toDate } from "./key-row";
import { notifyKeyChanged } from "./notify";
import { refuseStale } from "./refusal";
import { keyStateStatement, RELEASED, type KeyState } from "./statements";
import type { IdempotencyKeyRef, StoredResponse } from "./types";

export interface CompleteInput extends IdempotencyKeyRef {
  response: StoredResponse;
  /** The attempt `begin` returned (the fencing token): a caller whose lock was taken over is refused. */
  attempt: number;
}

export interface CompleteResult {
  attempt: number;
  completedAt: Date;
  expiresAt: Date;
  /** True when this attempt had already completed the key: the first stored response stays. */
  alreadyCompleted: boolean;
}

// Stores the response while the key is still held by this request and this attempt.
const COMPLETE_SQL = `
update idempotency_keys k set
  status = 'completed', locked_until = null, completed_at = statement_timestamp(),
  response_status = $4, response_body = $5, response_headers = $6::jsonb,
  expires_at = statement_timestamp() + make_interval(secs => coalesce(
    (select s.retention_seconds from idempotency_scopes s where s.id = $1), ${DEFAULT_RETENTION_SECONDS}))
where k.scope = $1 and k.key = $2 and k.status = 'in_progress' and k.request_hash = decode($3, 'hex')
  and k.attempt = $7::int and k.expires_at > statement_timestamp() and not ${RELEASED("k")}
returning k.attempt, k.completed_at, k.expires_at, k.waiters
`;

interface CompletedRow {
  attempt: number;
  completed_at: Date | string;
  expires_at: Date | string;
  waiters: boolean;
}

/** Stores the response of the work `begin` started; later begins replay it verbatim. */
export async function complete(db: DbOrTx, input: CompleteInput): Promise<CompleteResult> {
  const result = await storeResponse(db, input);
  decided({
    mode: "idempotency_complete",
    subject: input.scope,
    decision: result.alreadyCompleted ? "already_stored" : "stored",
    key: input.key,
    version: result.attempt,
    matchedAt: result.completedAt,
    origin: input.origin,
  });
  return result;
}

async function storeResponse(anyDb: DbOrTx, input: CompleteInput): Promise<CompleteResult> {
  assertKeyRef(input);
  // Straight to the key's worker when the handle routes (db/shard-router.ts).
  const db = routedDb(anyDb, "idempotency_keys", input.key);
  assertAttempt(input.attempt);
  const { status } = input.response;
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new ValidationError("response.status must be an HTTP status between 100 and 599", "response.status");
  }
  let done: CompletedRow | undefined;
  let state: KeyState | undefined;
  try {
    [done] = await runRaw<CompletedRow>(db, {
      name: "weir_idempotency_complete_v3",
      text: COMPLETE_SQL,
      values: [input.scope, input.key, input.requestHash, status, input.response.body, JSON.stringify(input.response.headers), input.attempt],
    });
    if (done?.waiters) await notifyKeyChanged(db, input.scope, input.key);
    if (!done) [state] = await runRaw<KeyState>(db, keyStateStatement(input.scope, input.key));
  } catch (err) {
    throw asStoreError(err);
  }
  if (done) {
    return { attempt: Number(done.attempt), completedAt: toDate(done.completed_at), expiresAt: toDate(done.expires_at), alreadyCompleted: false };
  }
  const held = refuseStale(input, state, "complete");
  // Only the attempt that completed the key gets here: the same call, repeated.
  return { attempt: Number(held.attempt), completedAt: toDate(held.completed_at!), expiresAt: toDate(held.expires_at), alreadyCompleted: true };
}
