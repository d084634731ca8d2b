import { AsyncLocalStorage } from "node:async_hooks";

interface Simulated {
  at: number;
  /** Entries stamped so far at this time: each gets its own microsecond. */
  n: number;
}

// server.ts and Next's bundles may load this module separately: one clock per process.
const HANDLE = Symbol.for("weir.telemetry.decisionClock");
const clock = ((globalThis as Record<symbol, AsyncLocalStorage<Simulated>>)[HANDLE] ??= new AsyncLocalStorage<Simulated>());

/**
 * Runs `fn` with its decisions dated `at` (epoch ms) by the subscribers that date them (the stats
 * rollup, the journal): how the demo makes a week of history through the engine's own verbs. The
 * decisions themselves (their state, their answers) are made as at any time.
 */
export function atDecisionTime<T>(at: number, fn: () => Promise<T>): Promise<T> {
  return clock.run({ at, n: 0 }, fn);
}

/** The time a decision made now is dated: the simulated one inside atDecisionTime, else the clock's. */
export function decisionTime(): number {
  return clock.getStore()?.at ?? Date.now();
}

/** Inside atDecisionTime, a distinct microsecond of the simulated time for each call; else undefined. */
export function simulatedMicros(): number | undefined {
  const simulated = clock.getStore();
  return simulated ? simulated.at * 1000 + simulated.n++ : undefined;
}
