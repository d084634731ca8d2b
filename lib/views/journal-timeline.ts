import { keyTimeline, type JournalRow } from "@/db/queries/journal";
import type { DbOrTx } from "@/db/types";
import { journalConfigFromEnv } from "@/lib/journal/config";
import { journalLevelOf } from "@/lib/journal/set-level";
import type { JournalLevel } from "@/lib/journal/entry";
import { callerViews, type CallerView } from "./journal-callers";
import { KIND_OF_MODE, type JournalModeName } from "./journal-format";
import { loadGaps, type GapView } from "./journal-gaps";
import { setting } from "@/lib/config";

export interface TimelineEntry {
  atUs: number;
  at: string;
  decision: string;
  version: number | null;
  matchedAt: string | null;
  hashVersion: number | null;
  caller: CallerView | null;
  requestId: string | null;
  traceId: string | null;
  /** The trace in the tracing UI (WEIR_TRACE_URL); null when no template is set or no trace id was sent. */
  traceHref: string | null;
}

export interface KeyTimelineView {
  mode: JournalModeName;
  subject: string;
  key: string;
  entries: TimelineEntry[];
  /** The `before` of the next (older) page; null when these are the oldest kept. */
  olderBefore: number | null;
  /** Minutes of this subject within the shown span whose entries were not all kept. */
  gaps: GapView[];
  level: JournalLevel;
  /** False when this node keeps no journal at all (WEIR_JOURNAL=off). */
  enabled: boolean;
  retentionMs: number;
}

export const TIMELINE_PAGE = 50;
const TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * A trace id as a link into the tracing UI: WEIR_TRACE_URL is a template such as
 * https://tempo.example/trace/{traceId}. Only http(s) templates make links, so a setting can never
 * put a script URL on the page.
 */
export function traceHref(traceId: string | null, template = setting("WEIR_TRACE_URL")): string | null {
  if (!traceId || !template || !TRACE_ID.test(traceId) || !/^https?:\/\//i.test(template) || !template.includes("{traceId}")) return null;
  return template.replaceAll("{traceId}", traceId);
}

export async function timelineEntries(db: DbOrTx, rows: readonly JournalRow[]): Promise<TimelineEntry[]> {
  const callers = await callerViews(db, rows.map((r) => r.caller));
  return rows.map((r) => ({
    atUs: r.atUs,
    at: r.at,
    decision: r.decision,
    version: r.version,
    matchedAt: r.matchedAt,
    hashVersion: r.hashVersion,
    caller: r.caller === null ? null : callers.get(r.caller)!,
    requestId: r.requestId,
    traceId: r.traceId,
    traceHref: traceHref(r.traceId),
  }));
}

/** One key's answers, newest first, a page at a time, with the gaps of its subject over the span shown. */
export async function loadKeyTimeline(
  db: DbOrTx,
  q: { mode: JournalModeName; subject: string; key: string; before?: number; limit?: number },
  now = Date.now(),
): Promise<KeyTimelineView> {
  const limit = q.limit ?? TIMELINE_PAGE;
  const config = journalConfigFromEnv();
  const kind = KIND_OF_MODE[q.mode];
  const [rows, level] = await Promise.all([
    keyTimeline(db, { mode: q.mode, subject: q.subject, key: q.key, limit: limit + 1, before: q.before === undefined ? undefined : { atUs: q.before, key: q.key } }),
    journalLevelOf(db, kind, q.subject),
  ]);
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  // The span this page covers: back to its oldest entry when older ones exist, else back to retention.
  const toUs = q.before ?? (now + 60_000) * 1000;
  const fromUs = more ? page.at(-1)!.atUs : (now - config.retentionMs) * 1000;
  const [entries, gaps] = await Promise.all([timelineEntries(db, page), loadGaps(db, { fromUs, toUs, kind, subject: q.subject })]);
  return {
    mode: q.mode,
    subject: q.subject,
    key: q.key,
    entries,
    olderBefore: more ? page.at(-1)!.atUs : null,
    gaps,
    level,
    enabled: config.enabled,
    retentionMs: config.retentionMs,
  };
}
