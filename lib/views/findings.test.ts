import { describe, expect, it } from "vitest";
import { baselineOf, findingsOf, TREND_MIN_MS } from "./findings";
import { analyseSeries } from "./series";

const T0 = Date.parse("2026-01-05T00:00:00Z");
const HOUR = 3_600_000;

/** One point per hour: `checks` and `duplicates` per hour index. */
const hourly = (hours: number, checks: (h: number) => number, duplicates: (h: number) => number) =>
  Array.from({ length: hours }, (_, h) => ({ t: T0 + h * HOUR, checks: checks(h), duplicates: duplicates(h) }));

const noise = (h: number) => (h * 7919) % 7;
const judge = (points: ReturnType<typeof hourly>, step = 3_600) => findingsOf(points, step, baselineOf(points));

describe("spikes and trends", () => {
  it("names a rise over hours one trend, not a row of spikes", () => {
    // A week of hours at ~5 % duplicates; from hour 100 to 130 the rate climbs to ~30 %.
    const rise = (h: number) => h >= 100 && h < 130;
    const points = hourly(168, (h) => 1_000 + noise(h) * 10, (h) => (rise(h) ? 250 + 2 * (h - 100) : 50) + noise(h));
    const findings = judge(points);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: "trend", from: T0 + 100 * HOUR, to: T0 + 130 * HOUR });
  });

  it("keeps a short burst a spike, listed by its biggest bucket", () => {
    const points = hourly(168, () => 1_000, (h) => (h === 40 ? 900 : 50 + noise(h)));
    expect(judge(points)).toEqual([expect.objectContaining({ kind: "spike", peak: T0 + 40 * HOUR, peakDuplicates: 900, to: T0 + 41 * HOUR })]);
  });

  it("keeps a burst with a raised tail a spike: a trend's length is that of its elevated buckets", () => {
    const points = hourly(168, () => 1_000, (h) => (h === 40 ? 900 : h > 40 && h <= 43 ? 70 : 50 + (noise(h) % 2)));
    expect(judge(points)).toEqual([expect.objectContaining({ kind: "spike", from: T0 + 40 * HOUR, to: T0 + 44 * HOUR, peakDuplicates: 900 })]);
  });

  it("tells a trend and a spike apart in one range, and one quiet bucket does not split a trend", () => {
    const points = hourly(168, () => 1_000, (h) => (h === 20 ? 600 : h >= 60 && h < 66 ? (h === 62 ? 60 : 400) : 50 + noise(h)));
    const findings = judge(points);
    expect(findings.map((f) => [f.kind, (f.to - f.from) / HOUR])).toEqual([
      ["spike", 1],
      ["trend", 6],
    ]);
  });

  it("finds nothing in a daily rhythm of traffic at a steady rate", () => {
    const day = (h: number) => 300 + 700 * Math.max(0, Math.sin(((h % 24) / 24) * 2 * Math.PI));
    const points = hourly(168, (h) => Math.round(day(h)), (h) => Math.round(day(h) * 0.08) + (noise(h) % 3));
    expect(judge(points)).toEqual([]);
  });

  it("finds a rising rate even when the volume falls, but not in a few quiet checks", () => {
    const points = hourly(48, (h) => (h >= 30 && h < 36 ? 300 : 1_000), (h) => (h >= 30 && h < 36 ? 150 : 30 + noise(h)));
    expect(judge(points)).toEqual([expect.objectContaining({ kind: "trend", from: T0 + 30 * HOUR })]);
    const quiet = hourly(48, (h) => (h === 3 ? 3 : 1_000), (h) => (h === 3 ? 3 : 30 + noise(h)));
    expect(judge(quiet)).toEqual([]);
  });

  it("is a spike below the trend length, whatever the bucket size", () => {
    // 15-minute buckets: a 1 h rise is a spike, a 3 h rise a trend.
    const quarter = (n: number, from: number, to: number) =>
      Array.from({ length: 96 }, (_, i) => ({ t: T0 + i * 900_000, checks: 1_000, duplicates: i >= from && i < to ? 500 : 50 + noise(i) }));
    expect(findingsOf(quarter(96, 10, 14), 900, baselineOf(quarter(96, 10, 14))).map((f) => f.kind)).toEqual(["spike"]);
    expect(findingsOf(quarter(96, 10, 22), 900, baselineOf(quarter(96, 10, 22))).map((f) => f.kind)).toEqual(["trend"]);
    expect(TREND_MIN_MS).toBe(2 * HOUR);
  });

  it("judges a rise that fills the whole range against the previous period", () => {
    const row = (h: number, duplicates: number) => ({ bucket: new Date(T0 + h * HOUR), checks: 1_000, new: 1_000 - duplicates, changed: 0, duplicates, errors: 0, lateRedeliveries: 0 });
    const current = Array.from({ length: 24 }, (_, h) => row(24 + h, 300 + noise(h)));
    const previous = Array.from({ length: 24 }, (_, h) => row(h, 50 + noise(h)));
    const since = new Date(T0 + 24 * HOUR);
    const last = new Date(T0 + 47 * HOUR);
    expect(analyseSeries(current, since, last, 3_600).findings).toEqual([]);
    const judged = analyseSeries(current, since, last, 3_600, previous);
    expect(judged.findings).toEqual([expect.objectContaining({ kind: "trend", from: since.getTime(), to: last.getTime() + HOUR })]);
    expect(judged.points[0]).toMatchObject({ rate: 0.3, previousRate: 0.05, previousChecks: 1_000, trend: true, spike: false });
  });
});
