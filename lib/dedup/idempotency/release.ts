import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ConflictError, UnprocessableError } from "@/lib/errors";
import { assertKeyRef } from "./key-row";
import { keyStateStatement, type KeyState } from "./statements";

export interface ReleaseInput {
  scope: string;
  key: string;
  /** When given, only a key started for this request is released. */
  requestHash?: string;
  /** When given, only this attempt's lock is released, never a taker's. */
  attempt?: number;
}

export interface ReleaseResult {
  /** False when there was nothing to release (absent or expired key): releasing is idempotent. */
  released: boolean;
}

const RELEASE_SQL = `
delete from idempotency_keys
where scope = $1 and key = $2 and status = 'in_progress'
  and ($3::text is null or request_hash = decode($3, 'hex'))
  and ($4::int is null or attempt = $4::int)
returning attempt
`;

/** Gives an in-progress key back after the work failed, so that a retry can start it again. */
export async function release(db: DbOrTx, input: ReleaseInput): Promise<ReleaseResult> {
  assertKeyRef(input);
  let state: KeyState | undefined;
  try {
    const rows = await runRaw(db, {
      name: "weir_idempotency_release_v1",
      text: RELEASE_SQL,
      values: [input.scope, input.key, input.requestHash ?? null, input.attempt ?? null],
    });
    if (rows.length > 0) return { released: true };
    [state] = await runRaw<KeyState>(db, keyStateStatement(input.scope, input.key));
  } catch (err) {
    throw asStoreError(err);
  }
  if (!state) return { released: false };
  if (input.requestHash !== undefined && state.stored_hash !== input.requestHash) {
    throw new UnprocessableError("the idempotency key was used for a different request", "mismatch", {
      storedHash: state.stored_hash,
      requestHash: input.requestHash,
    });
  }
  if (state.status === "completed") {
    throw new ConflictError(`idempotency key ${input.key} is completed; a completed key cannot be released`, "conflict", {
      attempt: Number(state.attempt),
      status: state.status,
    });
  }
  throw new ConflictError(`the lock of attempt ${input.attempt} was taken over by attempt ${state.attempt}`, "conflict", {
    attempt: Number(state.attempt),
    status: state.status,
  });
}
