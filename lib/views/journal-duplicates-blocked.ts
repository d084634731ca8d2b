import { rolledSpans, statsByPeriod } from "@/db/queries/console-stats";
import type { DbOrTx } from "@/db/types";
import { csvRow } from "@/lib/csv";
import type { BlockedReportQuery } from "@/lib/validation/console-journal";
import type { JournalKind } from "./journal-format";

export interface BlockedRow {
  subject: string;
  checks: number;
  /** Repeats turned away: duplicates (services, groups), in-progress and completed answers (scopes). */
  duplicates: number;
}

export interface BlockedPeriod {
  /** ISO date of the period's first day (a Monday for weeks), UTC. */
  start: string;
  label: string;
  /** The current period, still running. */
  partial: boolean;
  checks: number;
  duplicates: number;
  rows: BlockedRow[];
}

export interface BlockedReport {
  period: BlockedReportQuery["period"];
  kind: JournalKind;
  periods: BlockedPeriod[];
}

/** How many weeks or months the report reaches back, the current one included. */
export const REPORT_PERIODS = 12;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The first instant of the period `back` periods before the one holding `now` (UTC; weeks start on Monday). */
export function periodStart(unit: "week" | "month", now: number, back: number): Date {
  const d = new Date(now);
  if (unit === "month") return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1));
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday - 7 * back));
}

const labelOf = (unit: "week" | "month", start: Date) =>
  unit === "month" ? `${MONTHS[start.getUTCMonth()]} ${start.getUTCFullYear()}` : `Week of ${start.toISOString().slice(0, 10)}`;

/**
 * Duplicates blocked per subject of a kind, per UTC week or month, from the stats rollup (never the
 * journal: the rollup keeps every decision's count for as long as it is kept). Newest period first.
 */
export async function loadBlockedReport(db: DbOrTx, q: BlockedReportQuery, now = Date.now()): Promise<BlockedReport> {
  const since = periodStart(q.period, now, REPORT_PERIODS - 1);
  const rolled = await rolledSpans(db);
  const rows = await statsByPeriod(db, { kind: q.kind, since, rolled }, new Date(now), q.period);
  const byStart = new Map<number, BlockedPeriod>();
  for (let back = 0; back < REPORT_PERIODS; back++) {
    const start = periodStart(q.period, now, back);
    byStart.set(start.getTime(), { start: start.toISOString().slice(0, 10), label: labelOf(q.period, start), partial: back === 0, checks: 0, duplicates: 0, rows: [] });
  }
  for (const row of rows) {
    const period = byStart.get(row.period.getTime());
    if (!period || row.checks === 0) continue;
    period.rows.push({ subject: row.subject, checks: row.checks, duplicates: row.duplicates });
    period.checks += row.checks;
    period.duplicates += row.duplicates;
  }
  for (const period of byStart.values()) period.rows.sort((a, b) => b.duplicates - a.duplicates || a.subject.localeCompare(b.subject));
  // Made newest first, so the map's order is the report's.
  return { period: q.period, kind: q.kind, periods: [...byStart.values()] };
}

/** Subjects a period lists unless it is opened in full: the busiest, the rest summed in one row. */
export const REPORT_SUBJECTS_SHOWN = 10;

export interface ShownPeriod {
  rows: BlockedRow[];
  /** What the period's other subjects add up to; null when every subject is listed. */
  rest: { subjects: number; checks: number; duplicates: number } | null;
}

/**
 * The rows one period shows: all of them when it is the period opened (`open`, its start), else the
 * busiest REPORT_SUBJECTS_SHOWN and a sum of the rest. Twelve periods of a hundred services each
 * would otherwise be 1,200 rows on one page; the CSV keeps every row.
 */
export function shownRows(period: BlockedPeriod, open?: string): ShownPeriod {
  if (period.start === open || period.rows.length <= REPORT_SUBJECTS_SHOWN) return { rows: period.rows, rest: null };
  const others = period.rows.slice(REPORT_SUBJECTS_SHOWN);
  return {
    rows: period.rows.slice(0, REPORT_SUBJECTS_SHOWN),
    rest: {
      subjects: others.length,
      checks: others.reduce((sum, r) => sum + r.checks, 0),
      duplicates: others.reduce((sum, r) => sum + r.duplicates, 0),
    },
  };
}

/** The report as CSV, one row per period and subject (a spreadsheet sums it as it likes). */
export function blockedReportCsv(report: BlockedReport): string {
  const header = csvRow(["period_start", "period", "partial", report.kind, "checks", "duplicates_blocked", "duplicate_share"]);
  const lines = report.periods.flatMap((p) =>
    p.rows.map((r) => csvRow([p.start, report.period, p.partial, r.subject, r.checks, r.duplicates, r.checks === 0 ? "" : (r.duplicates / r.checks).toFixed(4)])),
  );
  return header + lines.join("");
}
