import type { Counters } from "@/db/queries/console-stats";

/**
 * Spikes and trends in a duplicate series (docs/console-charts.md). Each bucket is judged against a
 * robust baseline (medians and median absolute deviations, MAD) of the usual busy bucket, on two
 * measures: its duplicate **rate** (duplicates ÷ checks), and its duplicate **count** when the rest
 * of its traffic stayed usual (a busier hour at the usual rate is a rhythm, not a finding). A bucket
 * far above the baseline on either is *elevated*, half as far is *raised*. A finding is a run of
 * raised buckets (one quiet bucket does not split it) holding an elevated one: a **trend** when its
 * elevated buckets span TREND_MIN_MS or more, else a **spike**.
 */

type Sample = Pick<Counters, "checks" | "duplicates">;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Smallest excess over the baseline that can count: a handful of duplicates never does. */
export const MIN_SPIKE_EXCESS = 10;
/** Smallest rise of the duplicate rate that can count, in absolute terms (5 points)… */
export const MIN_RATE_RISE = 0.05;
/** …and relative to the usual rate (half of it again). */
export const MIN_RATE_RISE_RELATIVE = 0.5;
/** Robust deviations (1.4826 × MAD, a standard deviation for normal noise) a bucket must rise by. */
export const DEVIATIONS = 6;
/**
 * Fewest busy buckets that make a "usual" bucket. Traffic that starts and stops inside a range
 * fills its first and last bucket only partly, so with three busy buckets steady traffic reads
 * as one full bucket between two thin ones, and the full one would pass for a spike.
 */
export const MIN_BUSY_BUCKETS = 4;
/** A run of raised buckets this long (and at least two buckets) is a trend, shorter a spike. */
export const TREND_MIN_MS = 2 * 3_600_000;

export interface Baseline {
  /** Duplicates per bucket above which a bucket is elevated by count (Infinity: too few busy buckets). */
  countThreshold: number;
  countRaised: number;
  /** Other decisions (checks - duplicates) per bucket above which the traffic itself was raised. */
  othersRaised: number;
  /** The usual duplicate rate, and the rate above which a bucket is elevated by rate. */
  rate: number;
  rateThreshold: number;
  rateRaised: number;
}

const robust = (values: number[]) => {
  const m = median(values);
  return { m, spread: DEVIATIONS * 1.4826 * median(values.map((v) => Math.abs(v - m))) };
};

/** The baseline of the busy buckets among `samples` (empty buckets would drag the median to 0). */
export function baselineOf(samples: readonly Sample[]): Baseline {
  const busy = samples.filter((p) => p.checks > 0);
  if (busy.length < MIN_BUSY_BUCKETS) {
    const never = Number.POSITIVE_INFINITY;
    return { countThreshold: never, countRaised: never, othersRaised: never, rate: 0, rateThreshold: never, rateRaised: never };
  }
  const count = robust(busy.map((p) => p.duplicates));
  const countExcess = Math.max(count.spread, 0.5 * count.m, MIN_SPIKE_EXCESS);
  const others = robust(busy.map((p) => p.checks - p.duplicates));
  const rate = robust(busy.map((p) => p.duplicates / p.checks));
  const rateExcess = Math.max(rate.spread, MIN_RATE_RISE, MIN_RATE_RISE_RELATIVE * rate.m);
  return {
    countThreshold: count.m + countExcess,
    countRaised: count.m + countExcess / 2,
    othersRaised: others.m + Math.max(others.spread, 0.5 * others.m, MIN_SPIKE_EXCESS) / 2,
    rate: rate.m,
    rateThreshold: rate.m + rateExcess,
    rateRaised: rate.m + rateExcess / 2,
  };
}

/**
 * How far above the baseline a bucket is: 2 elevated, 1 raised, 0 not. A rate counts only when the
 * duplicates beyond what the usual rate predicts are MIN_SPIKE_EXCESS or more, so a quiet bucket of
 * three checks and two duplicates is not a 67 % spike; a count only when the other decisions did not
 * rise with it, so the busy hours of a daily rhythm are not trends.
 */
export function levelOf(p: Sample, b: Baseline): 0 | 1 | 2 {
  if (p.checks === 0) return 0;
  const byRate = p.duplicates - b.rate * p.checks >= MIN_SPIKE_EXCESS;
  const byCount = p.checks - p.duplicates <= b.othersRaised;
  const rate = p.duplicates / p.checks;
  if ((byCount && p.duplicates > b.countThreshold) || (byRate && rate > b.rateThreshold)) return 2;
  if ((byCount && p.duplicates > b.countRaised) || (byRate && rate > b.rateRaised)) return 1;
  return 0;
}

export interface Finding {
  kind: "spike" | "trend";
  /** First bucket's start and the end of the last bucket, epoch ms. */
  from: number;
  to: number;
  /** The bucket with the most duplicates. */
  peak: number;
  peakDuplicates: number;
  checks: number;
  duplicates: number;
}

/** The spikes and trends of a filled series (one point per bucket, in time order), most duplicates first. */
export function findingsOf<P extends Sample & { t: number }>(points: readonly P[], stepSeconds: number, baseline: Baseline): Finding[] {
  const step = stepSeconds * 1000;
  const levels = points.map((p) => levelOf(p, baseline));
  const findings: Finding[] = [];
  let i = 0;
  while (i < points.length) {
    if (levels[i] === 0) {
      i++;
      continue;
    }
    // A run of raised buckets, bridging one quiet bucket when the next one is raised again.
    let end = i;
    while (end + 1 < points.length && (levels[end + 1]! > 0 || (end + 2 < points.length && levels[end + 2]! > 0))) end++;
    const run = points.slice(i, end + 1);
    const runLevels = levels.slice(i, end + 1);
    if (runLevels.includes(2)) {
      const peak = run.reduce((a, b) => (b.duplicates > a.duplicates ? b : a));
      // Its length is judged from its first to its last elevated bucket: a burst with a raised tail stays a spike.
      const elevated = runLevels.lastIndexOf(2) - runLevels.indexOf(2) + 1;
      findings.push({
        kind: elevated * step >= TREND_MIN_MS && elevated >= 2 ? "trend" : "spike",
        from: run[0]!.t,
        to: run[run.length - 1]!.t + step,
        peak: peak.t,
        peakDuplicates: peak.duplicates,
        checks: run.reduce((sum, p) => sum + p.checks, 0),
        duplicates: run.reduce((sum, p) => sum + p.duplicates, 0),
      });
    }
    i = end + 1;
  }
  return findings.sort((a, b) => b.peakDuplicates - a.peakDuplicates || b.from - a.from);
}
