import { auditBy } from "@/db/queries/audit";
import { findJournalSetting, upsertJournalSetting } from "@/db/queries/journal-settings";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor, ScopeKind } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { journalSubjectKindSchema, journalSubjectSchema, setJournalLevelSchema } from "@/lib/validation/journal";
import type { JournalLevel, SubjectKind } from "./entry";
import { journal } from "./index";

export const SCOPE_KIND_OF: Record<SubjectKind, ScopeKind> = { service: "services", group: "consumerGroups", scope: "idempotencyScopes" };

export interface SetJournalLevelInput {
  kind: SubjectKind;
  subject: string;
  level: JournalLevel;
  reason?: string;
}

export interface SetJournalLevelResult {
  kind: SubjectKind;
  subject: string;
  level: JournalLevel;
  previous: JournalLevel;
  changed: boolean;
}

/**
 * Sets what the journal keeps of one subject's answers (all, changes and duplicates, or none).
 * Applies to this node's next answers at once and on every other node within a few seconds (the
 * writers re-read the levels); answers made before it, written or still buffered, are kept until
 * retention. Audited; a level that is already set writes nothing.
 */
export async function setJournalLevel({ db, actor, input }: { db: DbOrTx; actor: Actor; input: SetJournalLevelInput }): Promise<SetJournalLevelResult> {
  const kind = journalSubjectKindSchema.parse(input.kind);
  const subject = journalSubjectSchema.parse(input.subject);
  const { level, reason } = setJournalLevelSchema.parse({ level: input.level, reason: input.reason });
  authorize(actor, "operate", { kind: SCOPE_KIND_OF[kind], id: subject });
  try {
    const result = await db.transaction(async (tx) => {
      const previous = ((await findJournalSetting(tx, kind, subject))?.level ?? "all") as JournalLevel;
      if (previous === level) return { kind, subject, level, previous, changed: false };
      await upsertJournalSetting(tx, kind, subject, level);
      await auditBy(tx, actor, {
        action: "journal.level",
        target: `${kind}:${subject}`,
        affected: 1,
        reason: reason || null,
        details: { before: previous, after: level },
      });
      return { kind, subject, level, previous, changed: true };
    });
    if (result.changed) await journal.levels.reload(db);
    return result;
  } catch (err) {
    throw asStoreError(err);
  }
}

/** The level a subject's answers are journaled at now. */
export async function journalLevelOf(db: DbOrTx, kind: SubjectKind, subject: string): Promise<JournalLevel> {
  return (((await findJournalSetting(db, kind, subject))?.level ?? "all") as JournalLevel);
}
