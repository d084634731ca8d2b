import type { DecisionEvent } from "@/lib/telemetry/decisions";
import { parseTraceparent } from "@/lib/telemetry/traceparent";

import type { JournalEntry, JournalMode } from "@/db/queries/journal-append";

export type { JournalEntry, JournalMode };
export type SubjectKind = "service" | "group" | "scope";
export type JournalLevel = "all" | "changes_and_duplicates" | "off";
export const JOURNAL_LEVELS: readonly JournalLevel[] = ["all", "changes_and_duplicates", "off"];

const MODE_OF: Record<DecisionEvent["mode"], JournalMode> = {
  last_seen: "last_seen",
  last_seen_revert: "last_seen",
  window: "window",
  window_release: "window",
  idempotency: "idempotency",
  idempotency_complete: "idempotency",
  idempotency_release: "idempotency",
};

export const KIND_OF: Record<JournalMode, SubjectKind> = { last_seen: "service", window: "group", idempotency: "scope" };

/** First acceptances: what `changes_and_duplicates` leaves out. */
const FIRST_ACCEPTANCES = new Set(["new", "started"]);

export function keptAt(level: JournalLevel, decision: string): boolean {
  return level === "all" || (level === "changes_and_duplicates" && !FIRST_ACCEPTANCES.has(decision));
}

/** The journal's reading of a decision event; undefined for what is no answer (a store error). */
export function toEntry(event: DecisionEvent, atUs: number): JournalEntry | undefined {
  if (event.decision === "error" || event.key === undefined) return undefined;
  const matchedAt = event.matchedAt ?? null;
  const origin = event.origin;
  return {
    atUs,
    mode: MODE_OF[event.mode],
    subject: event.subject,
    key: event.key,
    decision: event.mode === "window" && event.lateBySeconds !== undefined ? "late" : event.decision,
    version: event.version ?? null,
    matchedAt: typeof matchedAt === "string" ? new Date(matchedAt) : matchedAt,
    hashVersion: event.hashVersion ?? null,
    caller: origin?.caller ?? null,
    requestId: origin?.requestId ?? null,
    traceId: parseTraceparent(origin?.traceparent)?.traceId ?? null,
    ref: event.ref ?? null,
  };
}
