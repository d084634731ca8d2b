import type { SubjectSummary } from "@/lib/views/overview";

/**
 * How many services or groups the overview's tables show: the ones with the most duplicates in the
 * range, which is what on-call opens the overview for. The full lists are a link away (/services,
 * /groups); rendering every one of 100+ rows here was most of the page's server time at 10 M keys
 * (docs/performance-console.md).
 */
export const OVERVIEW_TOP_SUBJECTS = 10;

/**
 * The `limit` subjects with the most duplicates (then the most checks, then by id), and the
 * charted subject after them when it is not among those, so the row of what the chart shows is
 * always on the page.
 */
export function topSubjects(rows: readonly SubjectSummary[], limit: number, selected: string | null): SubjectSummary[] {
  const ranked = [...rows].sort((a, b) => b.duplicates - a.duplicates || b.checks - a.checks || a.id.localeCompare(b.id));
  const top = ranked.slice(0, limit);
  const charted = selected === null || top.some((row) => row.id === selected) ? undefined : ranked.find((row) => row.id === selected);
  return charted ? [...top, charted] : top;
}
