import { describe, expect, it } from "vitest";
import { analyseSeries } from "./series";
import { fromSeriesColumns, toSeriesColumns } from "./series-columns";

const T0 = Date.parse("2026-01-05T00:00:00Z");
const QUARTER = 900_000;

/** A quarter-hour row with odd counts, so the rates are long fractions. */
const row = (i: number, duplicates: number, checks = 1_003 + ((i * 7919) % 97)) => ({
  bucket: new Date(T0 + i * QUARTER),
  checks,
  new: checks - duplicates - (i % 5),
  changed: i % 5,
  duplicates,
  errors: i % 3,
  lateRedeliveries: i % 2,
});

describe("a series in columns", () => {
  it("gives back exactly the points analyseSeries made: rates, the previous period, spikes and trends", () => {
    // Yesterday quiet; today a burst at bucket 10, a rise from 40 to 60, and empty buckets at 80-84.
    const previous = Array.from({ length: 96 }, (_, i) => row(i, 31 + (i % 7)));
    const current = Array.from({ length: 96 }, (_, i) => row(96 + i, i === 10 ? 900 : i >= 40 && i < 60 ? 400 + i : 30 + (i % 7))).filter((_, i) => i < 80 || i > 84);
    const since = new Date(T0 + 96 * QUARTER);
    const last = new Date(T0 + 191 * QUARTER);
    const { points, findings } = analyseSeries(current, since, last, 900, previous);
    expect(findings.map((f) => f.kind).sort()).toEqual(["spike", "trend"]);
    expect(points.some((p) => p.rate === null)).toBe(true);

    const columns = toSeriesColumns(points, QUARTER);
    expect(fromSeriesColumns(columns)).toEqual(points);
    // Sent as JSON (what the React payload carries), it is a fraction of the objects' size.
    expect(JSON.stringify(columns).length).toBeLessThan(JSON.stringify(points).length / 2.5);
    expect(fromSeriesColumns(JSON.parse(JSON.stringify(columns)))).toEqual(points);
  });

  it("is empty for an empty series", () => {
    expect(fromSeriesColumns(toSeriesColumns([], QUARTER))).toEqual([]);
  });

  it("refuses buckets that are not consecutive, which a start and a step cannot carry", () => {
    const { points } = analyseSeries([row(0, 10), row(1, 12)], new Date(T0), new Date(T0 + QUARTER), 900);
    expect(() => toSeriesColumns([points[0]!, { ...points[1]!, t: T0 + 3 * QUARTER }], QUARTER)).toThrow(/bucket 1 starts at/);
  });
});
