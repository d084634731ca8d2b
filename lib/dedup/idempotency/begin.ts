import { isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import { routedDb } from "@/db/shard-router";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ValidationError } from "@/lib/errors";
import { decided } from "@/lib/telemetry/decisions";
import { assertKeyRef, verdictOf } from "./key-row";
import { beginOneStatement, beginStatement, peekStatement, type KeyRow } from "./statements";
import type { BeginResult, IdempotencyKeyRef } from "./types";

// Each retry follows a change committed by another begin; a handful cannot all be lost.
const MAX_ROUNDS = 5;

/**
 * Starts the work behind an idempotency key, or says why not: `in_progress`
 * (another caller holds the lock), `completed` (replay the stored response) or
 * `mismatch` (the key was used for a different request).
 */
export async function begin(db: DbOrTx, ref: IdempotencyKeyRef): Promise<BeginResult> {
  try {
    const result = await decideBegin(db, ref);
    recordBegin(ref, result);
    return result;
  } catch (err) {
    if (!(err instanceof ValidationError)) decided({ mode: "idempotency", subject: ref.scope, decision: "error" });
    throw err;
  }
}

/** The decision alone, uncounted: a caller that waits reads a key several times but answers once. */
export async function decideBegin(anyDb: DbOrTx, ref: IdempotencyKeyRef): Promise<BeginResult> {
  assertKeyRef(ref);
  // Straight to the key's worker when the handle routes (db/shard-router.ts).
  const db = routedDb(anyDb, "idempotency_keys", ref.key);
  let result: BeginResult | null = null;
  try {
    // On Citus the one-statement begin is split across nodes; the one-key function routes to the key's shard.
    const statement = (await isCitus(db)) ? beginOneStatement(ref) : beginStatement(ref);
    for (let round = 0; round < MAX_ROUNDS && !result; round++) {
      const [row] = await runRaw<KeyRow>(db, statement);
      result = verdictOf(row, ref) ?? verdictOf((await runRaw<KeyRow>(db, peekStatement(ref)))[0], ref);
    }
  } catch (err) {
    throw asStoreError(err);
  }
  if (!result) throw new Error(`idempotency key ${ref.scope}/${ref.key} kept changing under begin`);
  return result;
}

/** The one telemetry event of a begin, however many times the key was read to answer it. */
export function recordBegin(ref: IdempotencyKeyRef, result: BeginResult): void {
  decided({ mode: "idempotency", subject: ref.scope, decision: result.outcome, key: ref.key, ...detailOf(result), origin: ref.origin, ref: ref.ref ?? null });
}

/** The attempt and its time: when the key was completed, or when the holding attempt started. */
function detailOf(result: BeginResult): { version: number | null; matchedAt: Date | null } {
  switch (result.outcome) {
    case "started":
      return { version: result.attempt, matchedAt: null };
    case "in_progress":
      return { version: result.attempt, matchedAt: result.startedAt };
    case "completed":
      return { version: result.attempt, matchedAt: result.completedAt };
    case "mismatch":
      return { version: null, matchedAt: null };
  }
}
