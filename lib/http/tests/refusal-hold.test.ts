import { describe, expect, it } from "vitest";
import { RefusalHold } from "../refusal-hold";

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("refusal hold", () => {
  it("answers a caller's first refusals of a Retry-After at once, up to its allowance, and holds the rest a whole Retry-After", () => {
    const time = clock();
    const hold = new RefusalHold(100, time.now);
    expect([1, 2, 3].map(() => hold.timing("a", 2, 3))).toEqual([{ kind: "now" }, { kind: "now" }, { kind: "now" }]);
    expect(hold.timing("a", 2, 3)).toEqual({ kind: "hold", ms: 2000 });
    // Another caller is judged on its own.
    expect(hold.timing("b", 2, 3)).toEqual({ kind: "now" });
  });

  it("starts again once the caller waited its Retry-After, and keeps holding while it does not", () => {
    const time = clock();
    const hold = new RefusalHold(100, time.now);
    hold.timing("a", 1, 1);
    time.advance(900);
    expect(hold.timing("a", 1, 1)).toEqual({ kind: "hold", ms: 1000 });
    // Coming back early pushed its due time to 1,900 ms.
    time.advance(500);
    expect(hold.timing("a", 1, 1)).toEqual({ kind: "hold", ms: 1000 });
    time.advance(1001);
    expect(hold.timing("a", 1, 1)).toEqual({ kind: "now" });
  });

  it("answers at once and closes once it holds its capacity, and counts what it holds", () => {
    const time = clock();
    const hold = new RefusalHold(1, time.now);
    hold.timing("a", 1, 1);
    expect(hold.timing("a", 1, 1).kind).toBe("hold");
    hold.hold();
    expect(hold.held).toBe(1);
    expect(hold.timing("a", 1, 1)).toEqual({ kind: "close" });
    hold.released();
    expect(hold.timing("a", 1, 1).kind).toBe("hold");
  });
});
