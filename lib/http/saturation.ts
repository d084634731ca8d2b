import type { CapacityGate, GateState } from "./capacity-gate";

/** What the node's idempotency waiters look like (lib/dedup/idempotency/key-listener.ts). */
export interface WaiterState {
  waiting: number;
  maxWaiters: number;
  /** Waits refused in the last ten seconds because the node held its maximum. */
  refusedFull: number;
}

export interface Degraded {
  reasons: Array<"shedding" | "limit_lowered" | "waiters_full">;
  message: string;
}

// One gate per process (the latest API handler), as for the metrics.
const HANDLE = Symbol.for("weir.http.gate");
const holder = ((globalThis as Record<symbol, { gate?: CapacityGate }>)[HANDLE] ??= {});

export function watchGate(gate: CapacityGate): void {
  holder.gate = gate;
}

export function gateState(): GateState | undefined {
  return holder.gate?.state();
}

/**
 * Whether the node is refusing work that is not one caller's own excess: 503 overloaded in the
 * last ten seconds, an adaptive limit below its ceiling, or waits refused at the node's maximum.
 * A caller refused over its own share or quota (429) does not make the node degraded.
 */
export function degradationOf(gate: GateState | undefined, waiters: WaiterState | undefined): Degraded | null {
  const reasons: Degraded["reasons"] = [];
  const said: string[] = [];
  if (gate && gate.shed > 0) {
    reasons.push("shedding");
    said.push(`${gate.shed} requests refused 503 overloaded in the last 10 s (${gate.inFlight} in flight, limit ${gate.limit})`);
  }
  if (gate && gate.limit < gate.maxLimit) {
    reasons.push("limit_lowered");
    said.push(`answers are slow: the in-flight limit is down to ${gate.limit} of ${gate.maxLimit}`);
  }
  if (waiters && waiters.refusedFull > 0) {
    reasons.push("waiters_full");
    said.push(`${waiters.refusedFull} idempotency waits refused in the last 10 s: ${waiters.waiting} of ${waiters.maxWaiters} waiting`);
  }
  return reasons.length === 0 ? null : { reasons, message: said.join("; ") };
}
