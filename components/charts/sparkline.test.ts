import { describe, expect, it } from "vitest";
import { SPARKLINE_SIZE, sparklineSegments } from "./sparkline";

describe("sparklineSegments", () => {
  it("draws one path per run of steps with traffic, scaled to the highest share, with gaps where there was none", () => {
    // 5 steps over 96 px: 24 px apart; the highest share (0.5) at the top (y = 2), zero at the bottom (y = 22).
    expect(sparklineSegments([0.5, 0.25, null, 0, null])).toEqual(["M0.0,2.0 L24.0,12.0", "M72.0,22.0"]);
  });

  it("never scales a quiet line up to the top: below 1 % the scale stays at 1 %", () => {
    expect(sparklineSegments([0.005, 0.005], { width: 10, height: 24 })).toEqual(["M0.0,12.0 L10.0,12.0"]);
  });

  it("draws nothing for a day without traffic, and a lone point as one", () => {
    expect(sparklineSegments(Array.from({ length: 24 }, () => null))).toEqual([]);
    expect(sparklineSegments([0.2], SPARKLINE_SIZE)).toEqual(["M0.0,2.0"]);
  });
});
