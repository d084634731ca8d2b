import { rolledSpans, statsBetween, type Counters } from "@/db/queries/console-stats";
import { decisionCounts, DUPLICATE_DECISIONS, topCallers, topKeys, type DecisionCount, type KeyCount } from "@/db/queries/journal";
import type { DbOrTx } from "@/db/types";
import { journalConfigFromEnv } from "@/lib/journal/config";
import type { JournalLevel } from "@/lib/journal/entry";
import { journalLevelOf } from "@/lib/journal/set-level";
import type { BucketQuery } from "@/lib/validation/console-journal";
import { callerViews, type CallerView } from "./journal-callers";
import { keyHref, MODE_OF_KIND, type JournalKind, type JournalModeName } from "./journal-format";
import { loadGaps, type GapView } from "./journal-gaps";

export interface KeyCountView extends Omit<KeyCount, "callers"> {
  callers: CallerView[];
  href: string;
}

export interface CallerCountView {
  caller: CallerView | null;
  count: number;
  duplicates: number;
}

export interface BucketDecisions {
  kind: JournalKind;
  subject: string;
  mode: JournalModeName;
  from: string;
  to: string;
  show: "duplicates" | "all";
  /** What the stats rollup counted in the range (the chart's bar); null when it counted nothing. */
  stats: Counters | null;
  /** What the journal kept in the range, by decision. */
  counts: DecisionCount[];
  keys: KeyCountView[];
  callers: CallerCountView[];
  gaps: GapView[];
  level: JournalLevel;
  enabled: boolean;
}

const countersOf = ({ checks, new: fresh, changed, duplicates, errors, lateRedeliveries }: Counters): Counters => ({
  checks,
  new: fresh,
  changed,
  duplicates,
  errors,
  lateRedeliveries,
});

export const BUCKET_KEYS = 50;
const BUCKET_CALLERS = 10;

/** Names the callers of key counts and caller counts with one lookup per distinct token. */
export async function namedCounts(db: DbOrTx, keys: KeyCount[], callers: { caller: string | null; count: number; duplicates: number }[]) {
  const names = await callerViews(db, [...keys.flatMap((k) => k.callers), ...callers.map((c) => c.caller)]);
  return {
    keys: keys.map((k): KeyCountView => ({ ...k, callers: k.callers.map((c) => names.get(c)!), href: keyHref(k.mode, k.subject, k.key) })),
    callers: callers.map((c): CallerCountView => ({ ...c, caller: c.caller === null ? null : names.get(c.caller)! })),
  };
}

/**
 * One subject's decisions in one chart bucket (or any closed range): the rollup's counts beside the
 * journal's, the keys with the most duplicates (or answers) with first and last time and callers,
 * the callers, and the minutes whose entries were not all kept.
 */
export async function loadBucketDecisions(db: DbOrTx, q: BucketQuery): Promise<BucketDecisions> {
  const mode = MODE_OF_KIND[q.kind];
  const range = { fromUs: q.from.getTime() * 1000, toUs: q.to.getTime() * 1000, mode, subject: q.subject };
  const decisions = q.show === "duplicates" ? DUPLICATE_DECISIONS[mode] : undefined;
  const [stats, counts, keys, callers, gaps, level] = await Promise.all([
    rolledSpans(db).then((rolled) => statsBetween(db, { kind: q.kind, subject: q.subject, since: q.from, rolled }, q.to)),
    decisionCounts(db, range),
    topKeys(db, { ...range, decisions, limit: BUCKET_KEYS }),
    topCallers(db, { ...range, limit: BUCKET_CALLERS }),
    loadGaps(db, { ...range, kind: q.kind }),
    journalLevelOf(db, q.kind, q.subject),
  ]);
  const named = await namedCounts(db, keys, callers);
  const counted = stats[0];
  return {
    kind: q.kind,
    subject: q.subject,
    mode,
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    show: q.show,
    stats: counted ? countersOf(counted) : null,
    counts,
    ...named,
    gaps,
    level,
    enabled: journalConfigFromEnv().enabled,
  };
}
