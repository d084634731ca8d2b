import { journalGaps, type JournalGap } from "@/db/queries/journal";
import type { DbOrTx } from "@/db/types";
import { formatCount } from "./format";
import { formatMinute, KIND_LABEL, type JournalKind } from "./journal-format";

/** Minutes of one subject (or every subject) in which a node's full journal buffer dropped entries. */
export interface GapView {
  kind: JournalKind;
  subject: string;
  /** ISO minute. */
  minute: string;
  dropped: number;
  /** The sentence the page shows, e.g. "Service checkout, 2026-11-27 03:12 UTC: 40 entries lost". */
  text: string;
}

export function gapText(gap: JournalGap): string {
  const kind = KIND_LABEL[gap.subjectKind as JournalKind] ?? gap.subjectKind;
  return `${kind} ${gap.subject}, ${formatMinute(gap.minute)}: ${formatCount(gap.dropped)} ${gap.dropped === 1 ? "entry" : "entries"} lost`;
}

/** The gaps of [fromUs, toUs) for one subject, or for every subject when none is named. */
export async function loadGaps(db: DbOrTx, q: { fromUs: number; toUs: number; kind?: JournalKind; subject?: string }): Promise<GapView[]> {
  const gaps = await journalGaps(db, { fromUs: q.fromUs, toUs: q.toUs, subjectKind: q.kind, subject: q.subject });
  return gaps.map((gap) => ({ kind: gap.subjectKind as JournalKind, subject: gap.subject, minute: gap.minute, dropped: gap.dropped, text: gapText(gap) }));
}
