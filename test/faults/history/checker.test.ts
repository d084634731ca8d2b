import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkHistory } from "./check-history";
import type { CheckOutput, Operation } from "./history";
import { checkOperations } from "./linearizability";
import { lastSeenModel, windowModel, type LastSeenState } from "./models";

let ids = 0;
function op(fields: Partial<Operation> & Pick<Operation, "kind" | "invoke" | "complete">): Operation {
  return { id: ids++, client: 0, node: "n", keys: ["k"], status: "ok", ...fields };
}
const check = (payload: number, invoke: number, complete: number, decision: CheckOutput["decision"] | "unknown", version = 0) =>
  decision === "unknown"
    ? op({ kind: "check", input: { payload }, invoke, complete: Infinity, status: "unknown" })
    : op({ kind: "check", input: { payload }, invoke, complete, output: { decision, version } });
const reset = (invoke: number, complete: number, deleted: boolean) => op({ kind: "reset", invoke, complete, output: { deleted } });
const claim = (invoke: number, complete: number, decision: "new" | "duplicate", ttlSeconds: number, lateBySeconds?: number) =>
  op({ kind: "claim", invoke, complete, output: { decision, ttlSeconds, ...(lateBySeconds === undefined ? {} : { lateBySeconds }) } });
const ttl = (invoke: number, complete: number, ttlSeconds: number) => op({ kind: "ttl", input: { ttlSeconds }, invoke, complete });

const lastSeen = (...ops: Operation[]) => checkOperations(lastSeenModel, "k", ops).ok;
const window = (initialTtl: number, ...ops: Operation[]) => checkOperations(windowModel(initialTtl), "k", ops).ok;

describe("last-seen model", () => {
  it("accepts the specified sequences and rejects any other answer", () => {
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 3, "changed", 2), check(0, 4, 5, "changed", 3))).toBe(true);
    expect(lastSeen(check(0, 0, 1, "new", 1), check(0, 2, 3, "duplicate", 1), check(1, 4, 5, "changed", 2))).toBe(true);
    expect(lastSeen(check(0, 0, 1, "new", 1), check(0, 2, 3, "new", 1))).toBe(false);
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 3, "changed", 3))).toBe(false);
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 3, "duplicate", 1))).toBe(false);
  });

  it("lets concurrent operations take effect in any order, but real-time order holds", () => {
    // One new, one duplicate of the same payload racing: either may have come first.
    expect(lastSeen(check(0, 0, 10, "duplicate", 1), check(0, 1, 9, "new", 1))).toBe(true);
    // Two news racing: never.
    expect(lastSeen(check(0, 0, 10, "new", 1), check(0, 1, 9, "new", 1))).toBe(false);
    // A stale read: the change completed before the duplicate of the old payload began.
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 3, "changed", 2), check(0, 4, 5, "duplicate", 1))).toBe(false);
    // The same, overlapping the change: fine.
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 6, "changed", 2), check(0, 4, 5, "duplicate", 1))).toBe(true);
  });

  it("lets an unknown outcome take effect once, or never", () => {
    const base = [check(0, 0, 1, "new", 1), check(1, 2, 0, "unknown")];
    expect(lastSeen(...base, check(0, 10, 11, "changed", 3))).toBe(true);
    expect(lastSeen(...base, check(0, 10, 11, "duplicate", 1))).toBe(true);
    expect(lastSeen(...base, check(0, 10, 11, "changed", 4))).toBe(false);
    // It cannot take effect before it was invoked.
    expect(lastSeen(check(0, 0, 1, "new", 1), check(0, 3, 4, "changed", 2), check(1, 5, 0, "unknown"))).toBe(false);
  });

  it("checks reads against the stored state", () => {
    const read = (invoke: number, complete: number, version: number, payload = -1) => op({ kind: "read", invoke, complete, output: { version, payload } });
    expect(lastSeen(read(0, 1, 0), check(0, 2, 3, "new", 1), read(4, 5, 1, 0))).toBe(true);
    expect(lastSeen(check(0, 2, 3, "new", 1), read(4, 5, 0))).toBe(false);
    expect(lastSeen(check(0, 2, 3, "new", 1), read(4, 5, 1, 1))).toBe(false);
    expect(lastSeen(check(0, 2, 6, "new", 1), read(4, 5, 0))).toBe(true);
  });

  it("models resets: state removed, versions start again at 1, kept only when changed after the reset began", () => {
    expect(lastSeen(check(0, 0, 1, "new", 1), reset(2, 3, true), check(0, 4, 5, "new", 1))).toBe(true);
    expect(lastSeen(check(0, 0, 1, "new", 1), reset(2, 3, true), check(1, 4, 5, "changed", 2))).toBe(false);
    expect(lastSeen(reset(0, 1, true))).toBe(false);
    expect(lastSeen(check(0, 0, 1, "new", 1), reset(2, 3, false))).toBe(false);
    expect(lastSeen(check(0, 0, 3, "new", 1), reset(2, 4, false))).toBe(true);
    // Clock times are whole milliseconds: a write that completed in the reset's first millisecond may be after its cutoff.
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 4, "changed", 2), reset(4, 6, false))).toBe(true);
    expect(lastSeen(check(0, 0, 1, "new", 1), check(1, 2, 3, "changed", 2), reset(4, 6, false))).toBe(false);
  });
});

describe("window model", () => {
  it("decides long windows exactly: one new, then duplicates", () => {
    expect(window(3600, claim(0, 5, "new", 3600), claim(6, 8, "duplicate", 3600), claim(7, 9, "duplicate", 3600))).toBe(true);
    expect(window(3600, claim(0, 5, "new", 3600), claim(6, 8, "new", 3600))).toBe(false);
    expect(window(3600, claim(0, 5, "new", 3600), claim(3, 8, "new", 3600))).toBe(false);
    expect(window(3600, claim(0, 5, "duplicate", 3600))).toBe(false);
    expect(window(3600, claim(0, 5, "new", 60))).toBe(false);
  });

  it("uses the claim's time against the window, with lateness bounded by the intervals", () => {
    expect(window(1, claim(0, 10, "new", 1), claim(1500, 1510, "new", 1, 0.5))).toBe(true);
    expect(window(1, claim(0, 10, "new", 1), claim(500, 510, "new", 1, 0))).toBe(false);
    expect(window(1, claim(0, 10, "new", 1), claim(1500, 1510, "new", 1, 3))).toBe(false);
    expect(window(1, claim(0, 10, "new", 1), claim(1500, 1510, "new", 1))).toBe(false);
    expect(window(1, claim(0, 10, "new", 1), claim(5000, 5010, "duplicate", 1))).toBe(false);
    expect(window(1, claim(0, 10, "new", 1), claim(990, 1020, "duplicate", 1))).toBe(true);
    expect(window(1, claim(0, 10, "new", 1), claim(990, 1020, "new", 1, 0.001))).toBe(true);
  });

  it("lets a cleanup pass remove a record only once its window and grace period are over", () => {
    const cleanup = (invoke: number, complete: number) => op({ kind: "cleanup", invoke, complete });
    const grace1 = (...ops: Operation[]) => checkOperations(windowModel(1, 1), "k", ops).ok;
    expect(grace1(claim(0, 10, "new", 1), cleanup(2500, 2600), claim(2700, 2710, "new", 1))).toBe(true);
    expect(grace1(claim(0, 10, "new", 1), cleanup(2500, 2600), claim(2700, 2710, "new", 1, 1.7))).toBe(true);
    // Expired but inside the grace period: a cleanup must not have removed it, so the redelivery is late.
    expect(grace1(claim(0, 10, "new", 1), cleanup(1500, 1600), claim(1700, 1710, "new", 1))).toBe(false);
    expect(grace1(claim(0, 10, "new", 1), cleanup(1500, 1600), claim(1700, 1710, "new", 1, 0.7))).toBe(true);
    // Live: never removed.
    expect(grace1(claim(0, 10, "new", 1), cleanup(500, 600), claim(700, 710, "new", 1))).toBe(false);
  });

  it("applies TTL changes to existing records at once", () => {
    expect(window(1, claim(0, 10, "new", 1), ttl(20, 30, 3600), claim(5000, 5010, "duplicate", 3600))).toBe(true);
    expect(window(3600, claim(0, 10, "new", 3600), ttl(20, 30, 1), claim(5000, 5010, "new", 1, 3.99))).toBe(true);
    expect(window(3600, claim(0, 10, "new", 3600), ttl(20, 30, 1), claim(5000, 5010, "duplicate", 3600))).toBe(false);
  });
});

/** A random history that is linearizable by construction: each op takes effect inside its interval. */
type Lost = "applied" | "never";
function simulate(steps: { payload: number; kind: "check" | "reset"; lead: number; lag: number; lost: Lost | null }[]): Operation[] {
  let state: LastSeenState = lastSeenModel.init("k");
  return steps.map((s, i) => {
    const at = i * 10;
    const before = state;
    const [next] = lastSeenModel.step(before, { ...op({ kind: s.kind, invoke: at, complete: Infinity, status: "unknown" }), input: { payload: s.payload } }, Infinity);
    if (s.lost !== "never") state = next ?? before;
    const invoke = at - s.lead;
    const complete = at + s.lag;
    if (s.lost) return op({ kind: s.kind, input: { payload: s.payload }, invoke, complete: Infinity, status: "unknown" });
    if (s.kind === "reset") return reset(invoke, complete, next !== undefined);
    const output: CheckOutput =
      before.version === 0
        ? { decision: "new", version: 1 }
        : before.payload === s.payload
          ? { decision: "duplicate", version: before.version }
          : { decision: "changed", version: before.version + 1 };
    return op({ kind: "check", input: { payload: s.payload }, invoke, complete, output });
  });
}

const steps = fc.array(
  fc.record({
    payload: fc.integer({ min: 0, max: 2 }),
    kind: fc.constantFrom("check", "check", "check", "reset") as fc.Arbitrary<"check" | "reset">,
    lead: fc.integer({ min: 0, max: 35 }),
    lag: fc.integer({ min: 0, max: 35 }),
    lost: fc.constantFrom<Lost | null>(null, null, null, null, null, null, null, null, "applied", "never"),
  }),
  { minLength: 1, maxLength: 60 },
);

describe("the checker on generated histories", () => {
  it("accepts every history generated from a sequential execution", () => {
    fc.assert(fc.property(steps, (s) => checkOperations(lastSeenModel, "k", simulate(s)).ok), { numRuns: 300 });
  });

  it("rejects every such history once one answer is corrupted", () => {
    fc.assert(
      fc.property(steps, fc.nat(), (s, pick) => {
        const history = simulate(s);
        const answered = history.filter((o) => o.kind === "check" && o.status === "ok");
        fc.pre(answered.length > 0);
        const victim = answered[pick % answered.length]!;
        // No ordering can reach a version above the number of checks.
        victim.output = { ...(victim.output as CheckOutput), version: history.length + 1 };
        const result = checkOperations(lastSeenModel, "k", history);
        return !result.ok && result.decided && result.failure !== undefined;
      }),
      { numRuns: 300 },
    );
  });

  it("reports the offending sub-history per key", () => {
    const history = [
      { ...check(0, 0, 1, "new", 1), keys: ["a"] },
      { ...check(0, 2, 3, "new", 1), keys: ["a"] },
      { ...check(0, 0, 1, "new", 1), keys: ["b"] },
    ];
    const report = checkHistory(history, () => lastSeenModel);
    expect(report.ok).toBe(false);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatch(/^a \(last-seen\): not linearizable/);
    expect(report.failures[0]).toContain("payload 0 at version 1");
  });
});
