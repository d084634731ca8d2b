import type { Counters, SeriesRow } from "@/db/queries/console-stats";
import { baselineOf, findingsOf, MIN_BUSY_BUCKETS, type Baseline, type Finding } from "./findings";

export { median } from "./findings";

export interface SeriesPoint extends Counters {
  /** Bucket start, epoch milliseconds. */
  t: number;
  /** Duplicates ÷ checks in the bucket (null: no checks). */
  rate: number | null;
  /** The same bucket of the previous period (one range earlier): its rate and checks. */
  previousRate: number | null;
  previousChecks: number;
  /** Part of a short burst, or of a sustained rise (lib/views/findings.ts). */
  spike: boolean;
  trend: boolean;
}

export interface AnalysedSeries {
  points: SeriesPoint[];
  /** Spikes and trends, most duplicates first. */
  findings: Finding[];
  baseline: Baseline;
}

const ZERO: Counters = { checks: 0, new: 0, changed: 0, duplicates: 0, errors: 0, lateRedeliveries: 0 };

const pick = (row: Counters): Counters => ({
  checks: row.checks,
  new: row.new,
  changed: row.changed,
  duplicates: row.duplicates,
  errors: row.errors,
  lateRedeliveries: row.lateRedeliveries,
});

/** Every bucket from `since` to `lastBucket`, empty ones as zeros. */
export function fillBuckets(rows: readonly SeriesRow[], since: Date, lastBucket: Date, stepSeconds: number): (Counters & { t: number })[] {
  const byT = new Map(rows.map((row) => [row.bucket.getTime(), row]));
  const buckets: (Counters & { t: number })[] = [];
  for (let t = since.getTime(); t <= lastBucket.getTime(); t += stepSeconds * 1000) {
    const row = byT.get(t);
    buckets.push({ t, ...(row ? pick(row) : ZERO) });
  }
  return buckets;
}

const busy = (buckets: readonly Counters[]) => buckets.filter((b) => b.checks > 0).length;

/**
 * What is usual: the previous period when it saw at least half as many busy buckets as this one
 * (so a rise that fills this whole range is still a rise), else both periods together.
 */
function baselineBuckets(before: Counters[], current: Counters[]): Counters[] {
  return busy(before) >= MIN_BUSY_BUCKETS && 2 * busy(before) >= busy(current) ? before : [...before, ...current];
}

/**
 * The chart's series: every bucket from `since` to `lastBucket`, the previous period's bucket one
 * range earlier beside each (`previous`: rows from since - range on), and the spikes and trends
 * judged against the busy buckets of both periods.
 */
export function analyseSeries(rows: readonly SeriesRow[], since: Date, lastBucket: Date, stepSeconds: number, previous: readonly SeriesRow[] = []): AnalysedSeries {
  const current = fillBuckets(rows, since, lastBucket, stepSeconds);
  const span = lastBucket.getTime() - since.getTime() + stepSeconds * 1000;
  const before = fillBuckets(previous, new Date(since.getTime() - span), new Date(lastBucket.getTime() - span), stepSeconds);
  const baseline = baselineOf(baselineBuckets(before, current));
  const findings = findingsOf(current, stepSeconds, baseline);
  const points = current.map((c, i): SeriesPoint => {
    const p = before[i] ?? { ...ZERO, t: 0 };
    return {
      ...c,
      rate: c.checks > 0 ? c.duplicates / c.checks : null,
      previousRate: p.checks > 0 ? p.duplicates / p.checks : null,
      previousChecks: p.checks,
      spike: false,
      trend: false,
    };
  });
  for (const f of findings) for (const p of points) if (p.t >= f.from && p.t < f.to) p[f.kind] = true;
  return { points, findings, baseline };
}

/** Every bucket from `since` to `lastBucket` with spikes and trends marked (no previous period). */
export const fillSeries = (rows: readonly SeriesRow[], since: Date, lastBucket: Date, stepSeconds: number): SeriesPoint[] =>
  analyseSeries(rows, since, lastBucket, stepSeconds).points;
