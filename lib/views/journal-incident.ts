import { ANY_DUPLICATE, DUPLICATE_DECISIONS, topKeys, type DecisionCount } from "@/db/queries/journal";
import { answerCounts, answersRolledUntil, callerCounts } from "@/db/queries/journal-answers";
import type { DbOrTx } from "@/db/types";
import { journalConfigFromEnv } from "@/lib/journal/config";
import type { SearchParams } from "@/lib/validation/console-common";
import { DEFAULT_INCIDENT_MS } from "@/lib/validation/console-journal";
import { namedCounts, type CallerCountView, type KeyCountView } from "./journal-bucket";
import { MODE_OF_KIND, rangeParam, type JournalKind } from "./journal-format";
import { loadGaps, type GapView } from "./journal-gaps";

export interface IncidentQuery {
  from: Date;
  to: Date;
  kind?: JournalKind;
  subject?: string;
}

export interface IncidentView {
  from: string;
  to: string;
  kind: JournalKind | null;
  subject: string | null;
  counts: DecisionCount[];
  /** The keys with the most duplicates in the range, each with its duplicates' count, times and callers. */
  keys: KeyCountView[];
  callers: CallerCountView[];
  gaps: GapView[];
  enabled: boolean;
  retentionMs: number;
  /** The range starts before the oldest entry the journal keeps: what is older is gone. */
  beyondRetention: boolean;
}

/** The incident view's range when none was asked for: the last hour, up to the next whole minute. */
export function withDefaultRange(params: SearchParams, now = Date.now()): SearchParams {
  if (params.from !== undefined || params.to !== undefined) return params;
  const end = Math.ceil(now / 60_000) * 60_000;
  return { ...params, from: rangeParam(end - DEFAULT_INCIDENT_MS), to: rangeParam(end) };
}

export const INCIDENT_TOP = 20;

/**
 * Any time range of the journal, for every subject or one: decisions by kind, the most duplicated
 * keys, top callers and the gaps. The keys are ranked by the repeats turned away, not by all their
 * answers: a key answered once is no part of a duplicate incident, and an hour of every subject
 * holds tens of thousands of those. Counting only the duplicates groups a fraction of the range's
 * entries (0.45x the time at 20,000 answers an hour, docs/performance-console.md).
 */
export async function loadIncident(db: DbOrTx, q: IncidentQuery, now = Date.now()): Promise<IncidentView> {
  const range = {
    fromUs: q.from.getTime() * 1000,
    toUs: q.to.getTime() * 1000,
    mode: q.kind ? MODE_OF_KIND[q.kind] : undefined,
    subject: q.kind ? q.subject : undefined,
  };
  const rolledUntil = answersRolledUntil(db);
  const [counts, keys, callers, gaps] = await Promise.all([
    answerCounts(db, range, rolledUntil),
    topKeys(db, { ...range, decisions: range.mode ? DUPLICATE_DECISIONS[range.mode] : ANY_DUPLICATE, limit: INCIDENT_TOP }),
    callerCounts(db, { ...range, limit: INCIDENT_TOP }, rolledUntil),
    loadGaps(db, { fromUs: range.fromUs, toUs: range.toUs, kind: q.kind, subject: range.subject }),
  ]);
  const config = journalConfigFromEnv();
  return {
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    kind: q.kind ?? null,
    subject: range.subject ?? null,
    counts,
    ...(await namedCounts(db, keys, callers)),
    gaps,
    enabled: config.enabled,
    retentionMs: config.retentionMs,
    beyondRetention: q.from.getTime() < now - config.retentionMs,
  };
}
