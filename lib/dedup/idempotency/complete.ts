import { runRaw } from "@/db/raw";
import { DEFAULT_RETENTION_SECONDS } from "@/db/schema/idempotency-scopes";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "@/lib/errors";
import { assertKeyRef, toDate } from "./key-row";
import { keyStateStatement, type KeyState } from "./statements";
import type { IdempotencyKeyRef, StoredResponse } from "./types";

export interface CompleteInput extends IdempotencyKeyRef {
  response: StoredResponse;
  /** The attempt `begin` returned; when given, a caller whose lock was taken over is refused. */
  attempt?: number;
}

export interface CompleteResult {
  attempt: number;
  completedAt: Date;
  expiresAt: Date;
  /** True when the key was already completed for this request: the first stored response stays. */
  alreadyCompleted: boolean;
}

// Stores the response while the key is still held by this request (and attempt, when given).
const COMPLETE_SQL = `
update idempotency_keys k set
  status = 'completed', locked_until = null, completed_at = statement_timestamp(),
  response_status = $4, response_body = $5, response_headers = $6::jsonb,
  expires_at = statement_timestamp() + make_interval(secs => coalesce(
    (select s.retention_seconds from idempotency_scopes s where s.id = $1), ${DEFAULT_RETENTION_SECONDS}))
where k.scope = $1 and k.key = $2 and k.status = 'in_progress' and k.request_hash = decode($3, 'hex')
  and ($7::int is null or k.attempt = $7::int) and k.expires_at > statement_timestamp()
returning k.attempt, k.completed_at, k.expires_at
`;


/** Stores the response of the work `begin` started; later begins replay it verbatim. */
export async function complete(db: DbOrTx, input: CompleteInput): Promise<CompleteResult> {
  assertKeyRef(input);
  const { status } = input.response;
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new ValidationError("response.status must be an HTTP status between 100 and 599", "response.status");
  }
  let rows: { attempt: number; completed_at: Date | string; expires_at: Date | string }[];
  let state: KeyState | undefined;
  try {
    rows = await runRaw(db, {
      name: "weir_idempotency_complete_v1",
      text: COMPLETE_SQL,
      values: [
        input.scope,
        input.key,
        input.requestHash,
        status,
        input.response.body,
        JSON.stringify(input.response.headers),
        input.attempt ?? null,
      ],
    });
    if (rows.length === 0) [state] = await runRaw<KeyState>(db, keyStateStatement(input.scope, input.key));
  } catch (err) {
    throw asStoreError(err);
  }
  const [done] = rows;
  if (done) {
    return { attempt: Number(done.attempt), completedAt: toDate(done.completed_at), expiresAt: toDate(done.expires_at), alreadyCompleted: false };
  }
  return explainRefusal(input, state);
}

function explainRefusal(input: CompleteInput, state: KeyState | undefined): CompleteResult {
  if (!state) throw new NotFoundError(`idempotency key ${input.key} is not held in scope ${input.scope}; call begin first`, "key");
  if (state.stored_hash !== input.requestHash) {
    throw new UnprocessableError("the idempotency key was used for a different request", "mismatch", {
      storedHash: state.stored_hash,
      requestHash: input.requestHash,
    });
  }
  const sameAttempt = input.attempt === undefined || input.attempt === Number(state.attempt);
  if (state.status === "completed" && sameAttempt) {
    return { attempt: Number(state.attempt), completedAt: toDate(state.completed_at!), expiresAt: toDate(state.expires_at), alreadyCompleted: true };
  }
  throw new ConflictError(
    `the lock of attempt ${input.attempt} was taken over; attempt ${state.attempt} now ${state.status === "completed" ? "completed the key" : "holds it"}`,
    "conflict",
    { attempt: Number(state.attempt), status: state.status },
  );
}
