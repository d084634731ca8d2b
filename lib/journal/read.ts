import type { z } from "zod";
import { isoMicros, journalGaps, journalRange, keyTimeline } from "@/db/queries/journal";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import type { Permission } from "@/lib/auth/permissions";
import {
  encodeJournalCursor,
  journalKeyQuerySchema,
  journalRangeQuerySchema,
  journalSubjectRefSchema,
  type journalKeyResponseSchema,
  type journalLevelResponseSchema,
  type journalRangeResponseSchema,
} from "@/lib/validation/journal";
import { KIND_OF, type JournalMode, type SubjectKind } from "./entry";
import { journalLevelOf, SCOPE_KIND_OF } from "./set-level";

export type JournalRangePage = z.output<typeof journalRangeResponseSchema>;
export type JournalKeyPage = z.output<typeof journalKeyResponseSchema>;
export type JournalLevelView = z.output<typeof journalLevelResponseSchema>;

/** Which subject's journal, as a door received it (path segments, CLI arguments): parsed here, once. */
export interface JournalSubjectInput {
  mode: string;
  subject: string;
}

export interface JournalRangeInput extends JournalSubjectInput {
  from?: string;
  to?: string;
  /** One or several decisions; each item may itself be comma-separated. */
  decision?: string | readonly string[];
  caller?: string;
  key?: string;
  cursor?: string;
  limit?: number | string;
}

export interface JournalKeyInput extends JournalSubjectInput {
  key: string;
  before?: string;
  limit?: number | string;
}

/**
 * Parses the subject and authorises the actor on it (a service, consumer group or
 * idempotency scope, after the mode) before anything is read: a token scoped to
 * other subjects gets 403 and learns nothing.
 */
export function journalSubjectFor(actor: Actor, permission: Permission, input: JournalSubjectInput): { mode: JournalMode; subject: string; kind: SubjectKind } {
  const { mode, subject } = journalSubjectRefSchema.parse({ mode: input.mode, subject: input.subject });
  const kind = KIND_OF[mode];
  authorize(actor, permission, { kind: SCOPE_KIND_OF[kind], id: subject });
  return { mode, subject, kind };
}

/**
 * A subject's answers in a time range, oldest first, one keyset page at a time (by time and
 * key: every entry exactly once across pages), with the minutes of the range in which a node
 * dropped entries, so a reader knows where the journal is incomplete.
 */
export async function readJournalRange({ db, actor, input }: { db: DbOrTx; actor: Actor; input: JournalRangeInput }): Promise<JournalRangePage> {
  const { mode, subject, kind } = journalSubjectFor(actor, "read", input);
  const q = journalRangeQuerySchema.parse({ ...input, mode });
  try {
    const range = { fromUs: q.from, toUs: q.to, mode, subject, decisions: q.decision, caller: q.caller, key: q.key };
    // One row more than the page says whether another page exists, without an empty last page.
    const rows = await journalRange(db, { ...range, after: q.cursor, limit: q.limit + 1 });
    const gaps = await journalGaps(db, { fromUs: q.from, toUs: q.to, subjectKind: kind, subject });
    const entries = rows.slice(0, q.limit);
    const last = entries.at(-1);
    return {
      mode,
      subject,
      from: isoMicros(q.from),
      to: isoMicros(q.to),
      entries,
      nextCursor: rows.length > q.limit && last ? encodeJournalCursor(last) : null,
      gaps: gaps.map(({ minute, dropped }) => ({ minute, dropped })),
    };
  } catch (err) {
    throw asStoreError(err);
  }
}

/** One key's answers, newest first: what weir answered about it, when, and to whom. */
export async function readKeyJournal({ db, actor, input }: { db: DbOrTx; actor: Actor; input: JournalKeyInput }): Promise<JournalKeyPage> {
  const { mode, subject } = journalSubjectFor(actor, "read", input);
  const q = journalKeyQuerySchema.parse(input);
  try {
    const rows = await keyTimeline(db, { mode, subject, key: q.key, before: q.before, limit: q.limit + 1 });
    const entries = rows.slice(0, q.limit);
    const last = entries.at(-1);
    return { mode, subject, key: q.key, entries, nextBefore: rows.length > q.limit && last ? encodeJournalCursor(last) : null };
  } catch (err) {
    throw asStoreError(err);
  }
}

/** The level a subject's answers are journaled at (all, changes and duplicates, off). */
export async function readJournalLevel({ db, actor, input }: { db: DbOrTx; actor: Actor; input: JournalSubjectInput }): Promise<JournalLevelView> {
  const { mode, subject, kind } = journalSubjectFor(actor, "read", input);
  try {
    return { mode, kind, subject, level: await journalLevelOf(db, kind, subject) };
  } catch (err) {
    throw asStoreError(err);
  }
}
