import { runRaw } from "@/db/raw";
import { routedDb } from "@/db/shard-router";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { assertKeyRef, toDate } from "./key-row";
import { keyStateStatement, type KeyState } from "./statements";
import type { StoredResponse } from "./types";

export interface KeyStateView {
  scope: string;
  key: string;
  status: "in_progress" | "completed";
  attempt: number;
  requestHash: string;
  /** Null once completed. */
  lockedUntil: Date | null;
  /** An in-progress key whose lock has expired: the next begin of the same request takes it over. */
  lockExpired: boolean;
  /** When the current attempt began. */
  startedAt: Date;
  completedAt: Date | null;
  /** Past this the key behaves as absent and starts over at attempt 1. */
  expiresAt: Date;
  response: StoredResponse | null;
}

export function keyStateView(scope: string, key: string, row: KeyState): KeyStateView {
  const lockedUntil = row.locked_until === null ? null : toDate(row.locked_until);
  return {
    scope,
    key,
    status: row.status,
    attempt: Number(row.attempt),
    requestHash: row.stored_hash,
    lockedUntil,
    lockExpired: row.status === "in_progress" && lockedUntil !== null && lockedUntil <= toDate(row.read_at),
    startedAt: toDate(row.created_at),
    completedAt: row.completed_at === null ? null : toDate(row.completed_at),
    expiresAt: toDate(row.expires_at),
    response:
      row.status === "completed"
        ? { status: Number(row.response_status), body: row.response_body ?? "", headers: row.response_headers ?? {} }
        : null,
  };
}

/** A key's live state, the one read behind the API and the console; undefined when absent or expired. */
export async function readKeyState(db: DbOrTx, scope: string, key: string): Promise<KeyStateView | undefined> {
  assertKeyRef({ scope, key });
  try {
    const [row] = await runRaw<KeyState>(routedDb(db, "idempotency_keys", key), keyStateStatement(scope, key));
    return row && keyStateView(scope, key, row);
  } catch (err) {
    throw asStoreError(err);
  }
}
