import type { CheckInput, CheckOutput, ClaimOutput, ReadOutput, ResetOutput, TtlInput } from "./history";
import type { Model } from "./linearizability";

/** Slack for comparing the test's clock (ms) with the database's (µs, rounded in answers). */
export const CLOCK_SLACK_MS = 3;

/**
 * Last-seen dedup of one (service, message) key. `payload` is the id of a
 * payload variant (variants are structurally different; the same variant may
 * be sent with its fields in any order). `writtenBy` is the completion time of
 * the operation that wrote the current state (Infinity if its outcome is
 * unknown): a reset leaves a key alone only if it changed after the reset
 * started, which needs a writer that had not completed before the reset began.
 */
export interface LastSeenState {
  version: number;
  payload: number;
  writtenBy: number;
}

export const lastSeenModel: Model<LastSeenState> = {
  name: "last-seen",
  init: () => ({ version: 0, payload: -1, writtenBy: -Infinity }),
  hash: (s) => `${s.version}/${s.payload}/${s.writtenBy}`,
  describe: (s) => (s.version === 0 ? "absent" : `payload ${s.payload} at version ${s.version}`),
  // A later writer only widens what a reset may keep.
  dominates: (a, b) => a.version === b.version && a.payload === b.payload && a.writtenBy >= b.writtenBy,
  classOf: (op) => `${op.kind}:${op.keys[0]}:${(op.input as CheckInput | undefined)?.payload ?? ""}`,
  step(s, op, horizon) {
    const known = op.status === "ok";
    if (op.kind === "check") {
      const { payload } = op.input as CheckInput;
      const expected: CheckOutput =
        s.version === 0
          ? { decision: "new", version: 1 }
          : s.payload === payload
            ? { decision: "duplicate", version: s.version }
            : { decision: "changed", version: s.version + 1 };
      if (known) {
        const out = op.output as CheckOutput;
        if (out.decision !== expected.decision || out.version !== expected.version) return [];
      }
      if (expected.decision === "duplicate") return known ? [s] : [];
      return [{ version: expected.version, payload, writtenBy: Math.min(op.complete, horizon) }];
    }
    if (op.kind === "read") {
      if (!known) return [];
      const out = op.output as ReadOutput;
      return out.version === s.version && (s.version === 0 || out.payload === s.payload) ? [s] : [];
    }
    if (op.kind === "reset") {
      const removed: LastSeenState = { version: 0, payload: -1, writtenBy: -Infinity };
      if (!known) return s.version === 0 ? [] : [removed];
      const { deleted } = op.output as ResetOutput;
      if (deleted) return s.version === 0 ? [] : [removed];
      // Kept: nothing to remove, or the key changed after the reset's cutoff (taken after its invocation).
      // Times are whole milliseconds, so a writer that completed in the millisecond the reset began may
      // still have overlapped it (the checker counts touching operations as concurrent too).
      return s.version === 0 || s.writtenBy >= op.invoke ? [s] : [];
    }
    throw new Error(`last-seen model: unexpected ${op.kind}`);
  },
};

/**
 * Window dedup of one (group, message) key. The record's claim time (the
 * database's statement_timestamp() of the claim that wrote it) is only known
 * to lie within that claim's invocation and completion, so the state holds an
 * interval [from, to]; a claim's own statement time S lies within its own
 * interval. A claim is a duplicate iff claimedAt > S - ttl. TTL changes are
 * part of every key's history of their group. A cleanup pass may remove the
 * record only if, at some moment of the pass, it was older than ttl + grace
 * (grace null: one TTL); whether it did is not observed, so both are allowed.
 */
export interface WindowState {
  present: boolean;
  from: number;
  to: number;
  ttlSeconds: number;
}

export function windowModel(initialTtlSeconds: number, graceSeconds: number | null = null): Model<WindowState> {
  const eps = CLOCK_SLACK_MS;
  return {
    name: "window",
    init: () => ({ present: false, from: 0, to: 0, ttlSeconds: initialTtlSeconds }),
    hash: (s) => (s.present ? `${s.from}-${s.to}/${s.ttlSeconds}` : `-/${s.ttlSeconds}`),
    describe: (s) => `${s.present ? `claimed within [${s.from}, ${s.to}]` : "no record"}, ttl ${s.ttlSeconds} s`,
    // A wider interval for the claim time allows every answer a narrower one allows.
    dominates: (a, b) => a.present === b.present && a.ttlSeconds === b.ttlSeconds && (!a.present || (a.from <= b.from && a.to >= b.to)),
    classOf: (op) => `${op.kind}:${op.keys.join(",")}:${(op.input as TtlInput | undefined)?.ttlSeconds ?? ""}`,
    step(s, op, horizon) {
      const known = op.status === "ok";
      // The operation takes effect (and read the clock) before this: its own answer, or an operation ordered after it.
      const end = Math.min(op.complete, horizon);
      if (op.kind === "ttl") {
        const { ttlSeconds } = op.input as TtlInput;
        if (!known) return s.ttlSeconds === ttlSeconds ? [] : [{ ...s, ttlSeconds }];
        return [{ ...s, ttlSeconds }];
      }
      if (op.kind === "cleanup") {
        const keepMs = (s.ttlSeconds + (graceSeconds ?? s.ttlSeconds)) * 1000;
        const removable = s.present && s.from - eps < end - keepMs;
        const removed = { present: false, from: 0, to: 0, ttlSeconds: s.ttlSeconds };
        if (!known) return removable ? [removed] : [];
        return removable ? [s, removed] : [s];
      }
      if (op.kind === "reset") {
        const removed = { present: false, from: 0, to: 0, ttlSeconds: s.ttlSeconds };
        if (!known) return s.present ? [removed] : [];
        const { deleted } = op.output as ResetOutput;
        if (deleted) return s.present ? [removed] : [];
        // Kept: no record, or one claimed after the reset's cutoff (which is after the reset's invocation);
        // a claim that completed in the reset's first millisecond may have overlapped it.
        return !s.present || s.to >= op.invoke ? [s] : [];
      }
      if (op.kind !== "claim") throw new Error(`window model: unexpected ${op.kind}`);
      const ttl = s.ttlSeconds * 1000;
      const out = op.output as ClaimOutput | undefined;
      if (known && out!.ttlSeconds !== s.ttlSeconds) return [];
      const start = op.invoke;
      if (!s.present) {
        if (known && (out!.decision !== "new" || out!.lateBySeconds !== undefined)) return [];
        return [{ present: true, from: start, to: end, ttlSeconds: s.ttlSeconds }];
      }
      // Some S in [start, end] and claimedAt c in [from, to]: duplicate iff c > S - ttl.
      const mayBeDuplicate = s.to + eps > start - ttl;
      const mayBeNew = s.from - eps <= end - ttl;
      if (known && out!.decision === "duplicate") return mayBeDuplicate && out!.lateBySeconds === undefined ? [s] : [];
      if (!mayBeNew) return [];
      // New again after the window: S >= c + ttl; a known lateness pins S to c + ttl + late.
      let from = Math.max(start, s.from + ttl);
      let to = end;
      if (known) {
        if (out!.lateBySeconds === undefined) return [];
        const late = out!.lateBySeconds * 1000;
        from = Math.max(from, s.from + ttl + late - eps);
        to = Math.min(to, s.to + ttl + late + eps);
        if (from > to + eps) return [];
      }
      return [{ present: true, from: Math.min(from, to), to, ttlSeconds: s.ttlSeconds }];
    },
  };
}
