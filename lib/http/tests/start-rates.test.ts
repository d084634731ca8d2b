import { describe, expect, it } from "vitest";
import { StartRates } from "../start-rates";

describe("start rates", () => {
  it("tells the caller that starts the most from the one that starts a steady few, whatever they hold", () => {
    let now = 0;
    const rates = new StartRates(() => now);
    for (let ms = 0; ms < 1000; ms += 10) {
      now = ms;
      for (let i = 0; i < 10; i++) rates.add("flood");
      if (ms % 100 === 0) rates.add("steady");
    }
    expect(rates.withinFairPart("steady", 2)).toBe(true);
    expect(rates.withinFairPart("flood", 2)).toBe(false);
    // A caller alone is within its fair part; one never seen starts nothing.
    expect(rates.withinFairPart("flood", 1)).toBe(true);
    expect(rates.withinFairPart("new", 3)).toBe(true);
  });

  it("forgets a burst within a few seconds", () => {
    let now = 0;
    const rates = new StartRates(() => now);
    for (let i = 0; i < 1000; i++) rates.add("burst");
    rates.add("steady");
    expect(rates.withinFairPart("burst", 2)).toBe(false);
    for (now = 1000; now <= 6000; now += 100) rates.add("steady");
    expect(rates.withinFairPart("burst", 2)).toBe(true);
  });
});
