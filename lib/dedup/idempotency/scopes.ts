import { eq, sql } from "drizzle-orm";
import { auditBy } from "@/db/queries/audit";
import { DEFAULT_LOCK_SECONDS, DEFAULT_RETENTION_SECONDS, idempotencyScopes } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { scopeSettingsChangeSchema, type ScopeSettingsChangeInput } from "@/lib/validation/idempotency";

export type IdempotencyScopeRow = typeof idempotencyScopes.$inferSelect;

export interface SetScopeInput {
  scope: string;
  /** Omitted: keep the current value (the default for a new scope). */
  lockSeconds?: number;
  retentionSeconds?: number;
  reason: string | null;
  actor: Actor;
}

export interface SetScopeResult {
  scope: IdempotencyScopeRow;
  created: boolean;
  changed: boolean;
}

export async function findIdempotencyScope(db: DbOrTx, id: string): Promise<IdempotencyScopeRow | undefined> {
  try {
    const [row] = await db.select().from(idempotencyScopes).where(eq(idempotencyScopes.id, id));
    return row;
  } catch (err) {
    throw asStoreError(err);
  }
}

/**
 * The one verb behind every door that changes a scope's lock or retention: one schema, one
 * `authorize` on the scope, the destructive guard (a recent sign-in, the rate limit), then
 * setScopeSettings.
 */
export async function changeScopeSettings({ db, actor, input }: { db: DbOrTx; actor: Actor; input: ScopeSettingsChangeInput }): Promise<SetScopeResult> {
  authorize(actor, "operate");
  await guardDestructive(actor, db);
  const { scope, lockSeconds, retentionSeconds, reason } = scopeSettingsChangeSchema.parse(input);
  authorize(actor, "operate", { kind: "idempotencyScopes", id: scope });
  return setScopeSettings(db, { scope, lockSeconds, retentionSeconds, reason: reason ?? null, actor });
}

/**
 * Creates a scope or changes its lock and retention, with an audit row, in one
 * transaction. New values apply to keys begun or completed afterwards; stored
 * keys keep the expiry they were written with.
 */
export async function setScopeSettings(db: DbOrTx, input: SetScopeInput): Promise<SetScopeResult> {
  try {
    return await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(idempotencyScopes)
        .values({
          id: input.scope,
          lockSeconds: input.lockSeconds ?? DEFAULT_LOCK_SECONDS,
          retentionSeconds: input.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
        })
        .onConflictDoNothing({ target: idempotencyScopes.id })
        .returning();
      let before: Pick<IdempotencyScopeRow, "lockSeconds" | "retentionSeconds">;
      let scope: IdempotencyScopeRow;
      if (inserted) {
        before = { lockSeconds: DEFAULT_LOCK_SECONDS, retentionSeconds: DEFAULT_RETENTION_SECONDS };
        scope = inserted;
      } else {
        const [current] = await tx.select().from(idempotencyScopes).where(eq(idempotencyScopes.id, input.scope)).for("update");
        if (!current) throw new Error(`idempotency scope ${input.scope} vanished while it was locked`);
        const lockSeconds = input.lockSeconds ?? current.lockSeconds;
        const retentionSeconds = input.retentionSeconds ?? current.retentionSeconds;
        if (lockSeconds === current.lockSeconds && retentionSeconds === current.retentionSeconds) {
          return { scope: current, created: false, changed: false };
        }
        before = current;
        const [updated] = await tx
          .update(idempotencyScopes)
          .set({ lockSeconds, retentionSeconds, updatedAt: sql`now()` })
          .where(eq(idempotencyScopes.id, input.scope))
          .returning();
        scope = updated!;
      }
      await auditBy(tx, input.actor, {
        action: inserted ? "idempotency_scope.create" : "idempotency_scope.update",
        target: `idempotency_scope:${input.scope}`,
        affected: 0,
        reason: input.reason,
        details: {
          oldLockSeconds: before.lockSeconds,
          newLockSeconds: scope.lockSeconds,
          oldRetentionSeconds: before.retentionSeconds,
          newRetentionSeconds: scope.retentionSeconds,
        },
      });
      return { scope, created: inserted !== undefined, changed: true };
    });
  } catch (err) {
    throw asStoreError(err);
  }
}
