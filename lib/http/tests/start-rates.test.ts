import { describe, expect, it } from "vitest";
import { StartRates } from "../start-rates";

describe("start rates", () => {
  it("tells the caller that starts the most from the one that starts a steady few, whatever they hold", () => {
    let now = 0;
    const rates = new StartRates(() => now);
    for (let ms = 0; ms < 1000; ms += 10) {
      now = ms;
      for (let i = 0; i < 10; i++) rates.startWithinFairPart("flood", 2);
      if (ms % 100 === 0) rates.startWithinFairPart("steady", 2);
    }
    expect(rates.startWithinFairPart("steady", 2)).toBe(true);
    expect(rates.startWithinFairPart("flood", 2)).toBe(false);
    // A caller alone is within its fair part; a new one, with its first start, too.
    expect(rates.startWithinFairPart("flood", 1)).toBe(true);
    expect(rates.startWithinFairPart("new", 3)).toBe(true);
  });

  it("forgets a burst within a few seconds", () => {
    let now = 0;
    const rates = new StartRates(() => now);
    for (let i = 0; i < 999; i++) rates.startWithinFairPart("burst", 2);
    rates.startWithinFairPart("steady", 2);
    expect(rates.startWithinFairPart("burst", 2)).toBe(false);
    for (now = 1000; now <= 6000; now += 100) rates.startWithinFairPart("steady", 2);
    expect(rates.startWithinFairPart("burst", 2)).toBe(true);
  });
});
