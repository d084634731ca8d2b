import type { Counters, SeriesRow } from "@/db/queries/console-stats";

export interface SeriesPoint extends Counters {
  /** Bucket start, epoch milliseconds. */
  t: number;
  /** Duplicates above twice the range's median bucket. */
  spike: boolean;
}

const ZERO: Counters = { checks: 0, new: 0, changed: 0, duplicates: 0, errors: 0, lateRedeliveries: 0 };

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The spike threshold: twice the median bucket, and at least 2, so a quiet range does not flag every duplicate. */
export const spikeThreshold = (duplicates: readonly number[]) => 2 * Math.max(median(duplicates), 1);

/** Every bucket from `since` to `lastBucket`, empty ones as zeros, spikes marked. */
export function fillSeries(rows: readonly SeriesRow[], since: Date, lastBucket: Date, stepSeconds: number): SeriesPoint[] {
  const byT = new Map(rows.map((row) => [row.bucket.getTime(), row]));
  const points: SeriesPoint[] = [];
  for (let t = since.getTime(); t <= lastBucket.getTime(); t += stepSeconds * 1000) {
    const row = byT.get(t);
    points.push({ t, ...(row ? pick(row) : ZERO), spike: false });
  }
  const threshold = spikeThreshold(points.map((p) => p.duplicates));
  for (const point of points) point.spike = point.duplicates > threshold;
  return points;
}

const pick = (row: Counters): Counters => ({
  checks: row.checks,
  new: row.new,
  changed: row.changed,
  duplicates: row.duplicates,
  errors: row.errors,
  lateRedeliveries: row.lateRedeliveries,
});
