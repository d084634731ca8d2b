import type { Counters, SeriesRow } from "@/db/queries/console-stats";

export interface SeriesPoint extends Counters {
  /** Bucket start, epoch milliseconds. */
  t: number;
  /** Duplicates well above the usual busy bucket (see spikeThreshold). */
  spike: boolean;
}

const ZERO: Counters = { checks: 0, new: 0, changed: 0, duplicates: 0, errors: 0, lateRedeliveries: 0 };

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Smallest excess over the usual bucket that can count as a spike: a handful of duplicates never does. */
export const MIN_SPIKE_EXCESS = 10;

/**
 * Fewest busy buckets that make a "usual" bucket. Traffic that starts and stops inside a range
 * fills its first and last bucket only partly, so with three busy buckets steady traffic reads
 * as one full bucket between two thin ones, and the full one would pass for a spike.
 */
export const MIN_BUSY_BUCKETS = 4;

/**
 * Duplicates per bucket above which a bucket is a spike, judged against the
 * buckets that saw traffic only (empty ones would drag the median to 0 and
 * flag steady traffic): the median plus six robust deviations (1.4826 x MAD),
 * and at least 1.5 x the median and the median + MIN_SPIKE_EXCESS. With fewer
 * than MIN_BUSY_BUCKETS busy buckets nothing is a spike (Infinity).
 */
export function spikeThreshold(points: readonly Pick<Counters, "checks" | "duplicates">[]): number {
  const busy = points.filter((p) => p.checks > 0).map((p) => p.duplicates);
  if (busy.length < MIN_BUSY_BUCKETS) return Number.POSITIVE_INFINITY;
  const m = median(busy);
  const mad = median(busy.map((d) => Math.abs(d - m)));
  return Math.max(m + 6 * 1.4826 * mad, 1.5 * m, m + MIN_SPIKE_EXCESS);
}

/** Every bucket from `since` to `lastBucket`, empty ones as zeros, spikes marked. */
export function fillSeries(rows: readonly SeriesRow[], since: Date, lastBucket: Date, stepSeconds: number): SeriesPoint[] {
  const byT = new Map(rows.map((row) => [row.bucket.getTime(), row]));
  const points: SeriesPoint[] = [];
  for (let t = since.getTime(); t <= lastBucket.getTime(); t += stepSeconds * 1000) {
    const row = byT.get(t);
    points.push({ t, ...(row ? pick(row) : ZERO), spike: false });
  }
  const threshold = spikeThreshold(points);
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
