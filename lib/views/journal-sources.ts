import type { CallerCount } from "@/db/queries/journal";
import { answersRolledUntil, callerCounts } from "@/db/queries/journal-answers";
import type { DbOrTx } from "@/db/types";
import { journalConfigFromEnv } from "@/lib/journal/config";
import { SOURCE_PERIODS, type SourcesQuery } from "@/lib/validation/console-journal";
import { callerViews, type CallerView } from "./journal-callers";
import { MODE_OF_KIND, type JournalKind } from "./journal-format";
import { loadGaps, type GapView } from "./journal-gaps";

export interface SourceRow {
  caller: CallerView | null;
  /** Duplicates this caller sent in the period, and every answer it got. */
  duplicates: number;
  count: number;
  previousDuplicates: number;
  previousCount: number;
}

export interface SourcesView {
  kind: JournalKind;
  subject: string | null;
  period: SourcesQuery["period"];
  from: string;
  to: string;
  previousFrom: string;
  rows: SourceRow[];
  gaps: GapView[];
  /** The previous period starts before the oldest entry the journal keeps: its counts are partial. */
  previousBeyondRetention: boolean;
  enabled: boolean;
}

export const SOURCES_SHOWN = 25;
// Callers are few (tokens, library-mode names): this reads every one of them in practice.
const CALLERS_READ = 1000;

const keyOf = (caller: string | null) => caller ?? "\u0000";

/**
 * Which callers send the most duplicates to one subject (or every subject of a kind) in the last
 * period, beside what they sent in the period of equal length before it.
 */
export async function loadSources(db: DbOrTx, q: SourcesQuery, now = Date.now()): Promise<SourcesView> {
  const length = SOURCE_PERIODS[q.period];
  const to = Math.ceil(now / 60_000) * 60_000;
  const from = to - length;
  const base = { mode: MODE_OF_KIND[q.kind], subject: q.subject, limit: CALLERS_READ };
  const rolledUntil = answersRolledUntil(db);
  const [current, previous, gaps] = await Promise.all([
    callerCounts(db, { ...base, fromUs: from * 1000, toUs: to * 1000 }, rolledUntil),
    callerCounts(db, { ...base, fromUs: (from - length) * 1000, toUs: from * 1000 }, rolledUntil),
    loadGaps(db, { fromUs: (from - length) * 1000, toUs: to * 1000, kind: q.kind, subject: q.subject }),
  ]);
  const before = new Map(previous.map((c) => [keyOf(c.caller), c]));
  const latest = new Map(current.map((c) => [keyOf(c.caller), c]));
  const gone = previous.filter((c) => !latest.has(keyOf(c.caller)));
  const merged = [...current, ...gone]
    .map((c) => ({ caller: c.caller, now: latest.get(keyOf(c.caller)), then: before.get(keyOf(c.caller)) }))
    .sort((a, b) => duplicatesOf(b.now) - duplicatesOf(a.now) || duplicatesOf(b.then) - duplicatesOf(a.then))
    .filter((c) => duplicatesOf(c.now) + duplicatesOf(c.then) > 0)
    .slice(0, SOURCES_SHOWN);
  const names = await callerViews(db, merged.map((c) => c.caller));
  const config = journalConfigFromEnv();
  return {
    kind: q.kind,
    subject: q.subject ?? null,
    period: q.period,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    previousFrom: new Date(from - length).toISOString(),
    rows: merged.map((c) => ({
      caller: c.caller === null ? null : names.get(c.caller)!,
      duplicates: duplicatesOf(c.now),
      count: c.now?.count ?? 0,
      previousDuplicates: duplicatesOf(c.then),
      previousCount: c.then?.count ?? 0,
    })),
    gaps,
    previousBeyondRetention: from - length < now - config.retentionMs,
    enabled: config.enabled,
  };
}

const duplicatesOf = (c: CallerCount | undefined) => c?.duplicates ?? 0;
