import { hotDb, type Store } from "@/db/client";
import { runRaw } from "@/db/raw";
import { routedDb } from "@/db/shard-router";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ValidationError } from "@/lib/errors";
import { decided } from "@/lib/telemetry/decisions";
import { decideBegin, recordBegin } from "./begin";
import { keyListenerFor, type WaiterHolder } from "./key-listener";
import { RELEASED } from "./statements";
import type { BeginResult, IdempotencyKeyRef } from "./types";

export const MAX_WAIT_SECONDS = 30;
// Never re-read a key more often than this while its lock runs out (the node's and the database's clocks may differ).
const MIN_ROUND_MS = 100;

export type WaitedBeginResult = BeginResult & {
  /** True when the caller waited: for a result, a release or the end of the wait. */
  waited: boolean;
};

// Written once per key and waiting episode: from now on complete and release of the key send a NOTIFY.
const MARK_AWAITED_SQL = `
update idempotency_keys k set waiters = true
where k.scope = $1 and k.key = $2 and k.status = 'in_progress' and not k.waiters and not ${RELEASED("k")}
`;

async function markAwaited(db: DbOrTx, scope: string, key: string): Promise<void> {
  try {
    await runRaw(routedDb(db, "idempotency_keys", key), { name: "weir_idempotency_mark_awaited_v2", text: MARK_AWAITED_SQL, values: [scope, key] });
  } catch (err) {
    throw asStoreError(err);
  }
}

/**
 * `begin`, but while another caller holds the key, waits up to `waitSeconds`
 * (at most 30) for it to finish: a completion answers with the stored response;
 * a release or an expired lock lets this caller take the key (started); at the
 * end of the wait the answer is in_progress. Wakes on LISTEN/NOTIFY, not polling.
 * Each round listens first, then marks and reads the key, so no change is missed.
 * When the node already holds its maximum of waiters, or `holder` (the caller) its share of them,
 * answers in_progress at once.
 */
export async function beginWaiting(
  store: Store,
  ref: IdempotencyKeyRef,
  waitSeconds: number,
  signal?: AbortSignal,
  holder?: WaiterHolder,
): Promise<WaitedBeginResult> {
  try {
    const result = await decideWaiting(store, ref, waitSeconds, signal, holder);
    recordBegin(ref, result);
    return result;
  } catch (err) {
    if (!(err instanceof ValidationError)) decided({ mode: "idempotency", subject: ref.scope, decision: "error" });
    throw err;
  }
}

async function decideWaiting(
  store: Store,
  ref: IdempotencyKeyRef,
  waitSeconds: number,
  signal: AbortSignal | undefined,
  holder: WaiterHolder | undefined,
): Promise<WaitedBeginResult> {
  const first = await decideBegin(hotDb(store), ref);
  const listener = first.outcome === "in_progress" && waitSeconds > 0 ? keyListenerFor(store) : null;
  const subscription = listener?.subscribe(ref.scope, ref.key, holder);
  if (!listener || !subscription) return { ...first, waited: false };
  const deadline = Date.now() + Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000;
  try {
    for (;;) {
      await listener.ready();
      await markAwaited(hotDb(store), ref.scope, ref.key);
      const current = await decideBegin(hotDb(store), ref);
      const left = deadline - Date.now();
      if (current.outcome !== "in_progress" || left <= 0 || signal?.aborted) return { ...current, waited: true };
      const untilLockExpires = current.lockedUntil.getTime() - Date.now() + 20;
      await subscription.next(Math.min(left, Math.max(MIN_ROUND_MS, untilLockExpires)), signal);
    }
  } finally {
    subscription.close();
  }
}
