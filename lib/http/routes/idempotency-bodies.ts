import type { KeyStateView } from "@/lib/dedup/idempotency/key-state";
import { hashOfMember } from "@/lib/dedup/idempotency/request-hash";
import type { IdempotencyScopeRow } from "@/lib/dedup/idempotency/scopes";
import type { ApiContext } from "../types";

/** The request hash given, or the exact structural hash of the `request` member of the body. */
export async function requestHashOf(ctx: ApiContext, input: { requestHash?: string; request?: unknown }): Promise<string> {
  if (input.requestHash !== undefined) return input.requestHash;
  const hash = hashOfMember(await ctx.text(), "request");
  if (hash === undefined) throw new Error("the validated body has no request member");
  return hash;
}

/** Aborts when the caller hangs up, so a waiting begin gives its slot back. */
export async function untilHangUp<T>(ctx: ApiContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const hangUp = new AbortController();
  const abort = () => hangUp.abort();
  ctx.req.socket.once("close", abort);
  try {
    return await work(hangUp.signal);
  } finally {
    ctx.req.socket.off("close", abort);
  }
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function keyStateBody(state: KeyStateView) {
  return {
    ...state,
    lockedUntil: iso(state.lockedUntil),
    startedAt: state.startedAt.toISOString(),
    completedAt: iso(state.completedAt),
    expiresAt: state.expiresAt.toISOString(),
  };
}

export function scopeBody(scope: IdempotencyScopeRow) {
  return {
    id: scope.id,
    lockSeconds: scope.lockSeconds,
    retentionSeconds: scope.retentionSeconds,
    createdAt: scope.createdAt.toISOString(),
    updatedAt: scope.updatedAt.toISOString(),
  };
}
