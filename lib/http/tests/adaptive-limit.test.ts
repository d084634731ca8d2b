import { describe, expect, it } from "vitest";
import { AdaptiveConcurrencyLimit, nextLimit } from "../adaptive-limit";

const options = { min: 8, max: 512, tolerance: 2, smoothing: 0.2, longWindows: 600 };

/** Runs `windows` updates at a fixed median latency from (limit, noLoad). */
function run(limit: number, noLoadMs: number, medianMs: number, windows: number) {
  let step = { limit, noLoadMs };
  for (let i = 0; i < windows; i++) step = nextLimit(step.limit, step.noLoadMs, medianMs, options);
  return step;
}

describe("nextLimit: Gradient2's arithmetic", () => {
  it("grows by the square root of the limit while latency is at no-load, by a fifth of it while within tolerance, up to the ceiling", () => {
    expect(nextLimit(100, 2, 2, options).limit).toBeCloseTo(110, 6);
    expect(nextLimit(100, 2, 1, options).limit).toBeCloseTo(110, 6);
    expect(nextLimit(100, 2, 3.9, options).limit).toBeCloseTo(102, 1);
    expect(nextLimit(510, 2, 2, options).limit).toBe(512);
    // back from the floor after an overload: 64 -> 512 in about 2 (sqrt 512 - sqrt 64) = 29 windows
    expect(run(64, 2, 2, 28).limit).toBeLessThan(512);
    expect(run(64, 2, 2, 31).limit).toBe(512);
  });

  it("shrinks in proportion when the median passes tolerance x no-load, at most by half before smoothing", () => {
    // gradient 2 * 2 / 8 = 0.5: new = 0.8 * 100 + 0.2 * (50 + 10) = 92
    expect(nextLimit(100, 2, 8, options).limit).toBeCloseTo(92, 0);
    // a median 100x the average is clamped to the same half: one slow window cannot empty the door
    expect(nextLimit(100, 2, 200, options).limit).toBeCloseTo(nextLimit(100, 2, 8, options).limit, 0);
    // gradient 2 * 2 / 5 = 0.8: new = 0.8 * 100 + 0.2 * (80 + 10) = 98
    expect(nextLimit(100, 2, 5, options).limit).toBeCloseTo(98, 0);
  });

  it("comes down to the floor under sustained queueing within tens of windows, and never below it", () => {
    // 100 ms windows: below 100 in 2 s, at the floor in 7 s of latency 25x the no-load average
    expect(run(512, 2, 50, 20).limit).toBeLessThan(100);
    expect(run(512, 2, 50, 70).limit).toBe(8);
    expect(run(9, 2, 1e6, 5).limit).toBe(8);
  });

  it("takes the first window as the no-load latency, then moves it slowly", () => {
    expect(nextLimit(100, Number.NaN, 3, options)).toEqual({ limit: 110, noLoadMs: 3 });
    const after = nextLimit(100, 2, 8, options).noLoadMs;
    expect(after).toBeCloseTo(2 + (2 / 601) * 6, 9);
  });

  it("drops the no-load average 5 % faster once latency is back under half of it", () => {
    expect(nextLimit(100, 10, 4, options).noLoadMs).toBeCloseTo((10 + (2 / 601) * -6) * 0.95, 9);
  });
});

describe("AdaptiveConcurrencyLimit", () => {
  function clocked(o: { max: number; min: number; windowMs?: number; minSamples?: number }) {
    let now = 0;
    const limit = new AdaptiveConcurrencyLimit({ windowMs: 100, minSamples: 4, ...o, now: () => now });
    return { limit, advance: (ms: number) => (now += ms) };
  }

  it("refuses past the limit and takes requests again once slots are given back", () => {
    const { limit } = clocked({ max: 2, min: 2 });
    const a = limit.tryAcquire();
    const b = limit.tryAcquire();
    expect([a, b].every((t) => t !== undefined)).toBe(true);
    expect(limit.tryAcquire()).toBeUndefined();
    limit.release(a!);
    expect(limit.inFlight).toBe(1);
    expect(limit.tryAcquire()).toBeDefined();
  });

  it("closes a window only after windowMs and minSamples, on the median, and leaves unsampled answers out", () => {
    const { limit, advance } = clocked({ max: 100, min: 4 });
    const answer = (ms: number, sample = true) => {
      const started = limit.tryAcquire()!;
      advance(ms);
      limit.release(started, sample);
    };
    for (let i = 0; i < 3; i++) answer(2);
    answer(500, false);
    expect(limit.noLoadLatencyMs).toBeNaN(); // 3 samples, 506 ms: not enough samples yet
    answer(2);
    expect(limit.noLoadLatencyMs).toBe(2);
    expect(limit.limit).toBe(100);
    // the next window: median 40 ms (one fast outlier does not pull it down): the limit shrinks
    answer(1);
    for (let i = 0; i < 4; i++) answer(40);
    expect(limit.limit).toBe(92); // 0.8 * 100 + 0.2 * (50 + 10)
  });
});
