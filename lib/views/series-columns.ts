import type { SeriesPoint } from "./series";

/**
 * A chart series as it travels from the server to the browser: whole numbers by column, the
 * buckets' times as a start and a step, spikes and trends as one flag per bucket. The overview's
 * charts used to take SeriesPoint objects: every key and every rate's 17 digits written for each
 * of 96 to 720 buckets, about half of the page's React payload (docs/performance-console.md). The
 * rates are worked out again in the browser, exactly as analyseSeries does.
 */
export interface SeriesColumns {
  /** The first bucket's start and the step between buckets, epoch milliseconds. */
  t0: number;
  stepMs: number;
  checks: number[];
  new: number[];
  changed: number[];
  duplicates: number[];
  errors: number[];
  lateRedeliveries: number[];
  previousChecks: number[];
  previousDuplicates: number[];
  /** Per bucket: 1 spike, 2 trend, 3 both. */
  flags: number[];
}

const SPIKE = 1;
const TREND = 2;

/** The columns of `points`, which must be consecutive buckets `stepMs` apart (analyseSeries makes them so). */
export function toSeriesColumns(points: readonly SeriesPoint[], stepMs: number): SeriesColumns {
  const t0 = points[0]?.t ?? 0;
  points.forEach((p, i) => {
    if (p.t !== t0 + i * stepMs) throw new Error(`series bucket ${i} starts at ${p.t}, not ${t0 + i * stepMs}: buckets must be consecutive`);
  });
  const column = (pick: (p: SeriesPoint) => number) => points.map(pick);
  return {
    t0,
    stepMs,
    checks: column((p) => p.checks),
    new: column((p) => p.new),
    changed: column((p) => p.changed),
    duplicates: column((p) => p.duplicates),
    errors: column((p) => p.errors),
    lateRedeliveries: column((p) => p.lateRedeliveries),
    previousChecks: column((p) => p.previousChecks),
    // The previous duplicates are a whole number: the rate times the checks gives it back exactly once rounded.
    previousDuplicates: column((p) => (p.previousRate === null ? 0 : Math.round(p.previousRate * p.previousChecks))),
    flags: column((p) => (p.spike ? SPIKE : 0) | (p.trend ? TREND : 0)),
  };
}

/** The points again, rates computed as analyseSeries computes them. */
export function fromSeriesColumns(c: SeriesColumns): SeriesPoint[] {
  return c.checks.map((checks, i) => {
    const duplicates = c.duplicates[i]!;
    const previousChecks = c.previousChecks[i]!;
    return {
      t: c.t0 + i * c.stepMs,
      checks,
      new: c.new[i]!,
      changed: c.changed[i]!,
      duplicates,
      errors: c.errors[i]!,
      lateRedeliveries: c.lateRedeliveries[i]!,
      rate: checks > 0 ? duplicates / checks : null,
      previousRate: previousChecks > 0 ? c.previousDuplicates[i]! / previousChecks : null,
      previousChecks,
      spike: (c.flags[i]! & SPIKE) !== 0,
      trend: (c.flags[i]! & TREND) !== 0,
    };
  });
}
