import {
  rolledSpans,
  rollUp,
  rollupsForStep,
  ROLLUPS,
  quietSubject,
  statsBySubjectBeside,
  type Rollup,
  statsSeries,
  topByDuplicates,
  type Counters,
  type StatsKind,
  type SubjectRow,
  type SubjectRowBeside,
} from "@/db/queries/console-stats";
import { listServiceLabels } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { listConsumerGroups } from "@/lib/dedup/window/groups";
import { rangeWindow, type RangeKey } from "./ranges";
import type { Baseline, Finding } from "./findings";
import { analyseSeries, type SeriesPoint } from "./series";
import { withStore } from "@/lib/console/store";

export interface SubjectSummary extends Counters {
  id: string;
  label: string;
  /** The same subject's checks and duplicates over the previous period (the range before this one). */
  previous: Pick<Counters, "checks" | "duplicates">;
}

export interface OverviewData {
  range: RangeKey;
  stepSeconds: number;
  kind: StatsKind;
  subject: string | null;
  series: SeriesPoint[];
  /** Spikes and trends of the series, most duplicates first (lib/views/findings.ts). */
  findings: Finding[];
  baseline: Baseline;
  services: SubjectSummary[];
  groups: SubjectSummary[];
  /** Subjects with the most duplicates in the last 15 minutes. */
  topNow: SubjectRow[];
}

export const TOP_NOW_MINUTES = 15;

export interface OverviewQuery {
  range: RangeKey;
  kind: StatsKind;
  subject?: string;
}

/** Everything the overview shows, from the stats rollups only (never from decisions). */
export async function loadOverview(db: DbOrTx, q: OverviewQuery, now = Date.now()): Promise<OverviewData> {
  const w = rangeWindow(q.range, now);
  // Totals may read every rollup in any range; a series only those whose buckets fit whole into its step
  // (the 24 h chart's quarters from stats_quarter, 7 and 30 days from stats_hour, then quarters;
  // totals over 7 and 30 days mostly from stats_day).
  const rolled = await rolledSpans(db);
  // The previous period is the range before this one, bucket for bucket: drawn under the series,
  // part of the spikes' baseline, and what each subject's rate is compared with.
  const previousSince = new Date(w.since.getTime() - (w.lastBucket.getTime() - w.since.getTime() + w.stepSeconds * 1000));
  const at = (kind: StatsKind, subject?: string, since = w.since) => ({ kind, subject, since, rolled });
  // Each statement has a fixed cost, so each kind's subjects over both periods come in one, and the
  // chart's two periods in one series split at `since`: no rollup bucket straddles it, as both periods
  // start on a step. At 10 M keys that took 0.90x the time of two statements run side by side (24 h).
  const chart = { ...at(q.kind, q.subject, previousSince), rolled: rollupsForStep(rolled, w.stepSeconds) };
  const [bothPeriods, serviceTotals, groupTotals, services, groups, topNow] = await Promise.all([
    statsSeries(db, chart, w.stepSeconds),
    statsBySubjectBeside(db, at("service"), previousSince),
    statsBySubjectBeside(db, at("group"), previousSince),
    listServiceLabels(db),
    listConsumerGroups(db),
    topByDuplicates(db, "service", new Date(now - TOP_NOW_MINUTES * 60_000), 5),
  ]);
  const rows = bothPeriods.filter((row) => row.bucket >= w.since);
  const previousRows = bothPeriods.filter((row) => row.bucket < w.since);
  const { points, findings, baseline } = analyseSeries(rows, w.since, w.lastBucket, w.stepSeconds, previousRows);
  return {
    range: q.range,
    stepSeconds: w.stepSeconds,
    kind: q.kind,
    subject: q.subject ?? null,
    series: points,
    findings,
    baseline,
    services: summarize(serviceTotals, services.map((s) => [s.id, s.displayName])),
    groups: summarize(groupTotals, groups.map((g) => [g.id, g.id])),
    topNow,
  };
}

/** Known subjects with their totals (zeros when quiet) and the previous period's, plus subjects that only appear in the stats. */
function summarize(totals: SubjectRowBeside[], known: [string, string][]): SubjectSummary[] {
  const byId = new Map(totals.map((t) => [t.subject, t]));
  const labels = new Map(known);
  for (const t of totals) if (t.inWindow && !labels.has(t.subject)) labels.set(t.subject, t.subject);
  return Array.from(labels, ([id, label]) => {
    const { subject: _subject, inWindow: _inWindow, ...counters } = byId.get(id) ?? quietSubject(id);
    return { id, label, ...counters };
  }).sort((a, b) => b.checks - a.checks || a.id.localeCompare(b.id));
}

/** The latest quarter this process found closed and rolled up everywhere: until the next one closes there is nothing to check. */
let rolledUpAsOf = 0;

/** Moves closed buckets into the rollups; run after a response so no page waits for it. */
export async function maintainStatsRollup(now = Date.now()): Promise<void> {
  // A bucket closes 10 minutes after it ends (rollUp); until then there is nothing to move, and
  // each step still costs about 45 ms at a week of stats for 120 subjects (10 M keys, bench/console-pages.ts).
  const closedAt = (rollup: Rollup) => Math.floor((now - 600_000) / rollup.stepMs) * rollup.stepMs;
  const latest = Math.max(...ROLLUPS.map(closedAt));
  if (latest <= rolledUpAsOf) return;
  try {
    await withStore(async (db) => {
      const marks = new Map((await rolledSpans(db)).map((r) => [r.rollup, r.until.getTime()]));
      let upToDate = true;
      for (const rollup of ROLLUPS) {
        let until = marks.get(rollup);
        if (until === undefined || until < closedAt(rollup)) until = (await rollUp(db, rollup, 48))?.getTime();
        if (until === undefined || until < closedAt(rollup)) upToDate = false;
      }
      if (upToDate) rolledUpAsOf = Math.max(rolledUpAsOf, latest);
    });
  } catch (err) {
    console.error(`[weir] stats rollup failed, will retry on the next overview: ${(err as Error).message}`);
  }
}
