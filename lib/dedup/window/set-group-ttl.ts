import { eq, sql } from "drizzle-orm";
import { insertAudit } from "@/db/queries/audit";
import { consumerGroups, ttlChanges } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { defaultTtlSeconds } from "./default-ttl";
import type { ConsumerGroupRow, TtlChangeRow } from "./groups";
import { measureTtlImpact } from "./ttl-preview";

export interface SetGroupTtlInput {
  consumerGroup: string;
  ttlSeconds: number;
  /** Omitted: keep the current grace period; null: one TTL. */
  graceSeconds?: number | null;
  reason: string | null;
  actor: Actor;
}

export interface SetGroupTtlResult {
  group: ConsumerGroupRow;
  created: boolean;
  /** The history row written, or null when the settings were already these. */
  change: TtlChangeRow | null;
}

/**
 * Creates a consumer group or changes its TTL/grace. The settings, the history
 * row (with how many records expired at once) and the audit row commit together;
 * the group row is locked so concurrent changes are recorded in their real order.
 */
export async function setGroupTtl(db: DbOrTx, input: SetGroupTtlInput): Promise<SetGroupTtlResult> {
  try {
    return await db.transaction((tx) => applyTtl(tx, input));
  } catch (err) {
    throw asStoreError(err);
  }
}

async function applyTtl(tx: DbOrTx, input: SetGroupTtlInput): Promise<SetGroupTtlResult> {
  const id = input.consumerGroup;
  const [inserted] = await tx
    .insert(consumerGroups)
    .values({ id, ttlSeconds: input.ttlSeconds, graceSeconds: input.graceSeconds ?? null })
    .onConflictDoNothing({ target: consumerGroups.id })
    .returning();
  let group: ConsumerGroupRow;
  let before: { ttlSeconds: number; graceSeconds: number | null };
  if (inserted) {
    group = inserted;
    before = { ttlSeconds: defaultTtlSeconds(), graceSeconds: null };
  } else {
    const [current] = await tx.select().from(consumerGroups).where(eq(consumerGroups.id, id)).for("update");
    if (!current) throw new Error(`consumer group ${id} vanished while it was locked`);
    const graceSeconds = input.graceSeconds === undefined ? current.graceSeconds : input.graceSeconds;
    if (current.ttlSeconds === input.ttlSeconds && current.graceSeconds === graceSeconds) {
      return { group: current, created: false, change: null };
    }
    before = current;
    const [updated] = await tx
      .update(consumerGroups)
      .set({ ttlSeconds: input.ttlSeconds, graceSeconds, updatedAt: sql`now()` })
      .where(eq(consumerGroups.id, id))
      .returning();
    group = updated!;
  }
  const impact = await measureTtlImpact(tx, id, before.ttlSeconds, group.ttlSeconds);
  const [change] = await tx
    .insert(ttlChanges)
    .values({
      consumerGroup: id,
      oldTtlSeconds: before.ttlSeconds,
      newTtlSeconds: group.ttlSeconds,
      oldGraceSeconds: before.graceSeconds,
      newGraceSeconds: group.graceSeconds,
      created: inserted !== undefined,
      actor: input.actor.id,
      reason: input.reason,
      expiredAtOnce: impact.expireAtOnce,
      revived: impact.revived,
    })
    .returning();
  await insertAudit(tx, {
    actor: input.actor.id,
    actorRole: input.actor.role,
    action: inserted ? "consumer_group.create" : "consumer_group.ttl_change",
    target: `consumer_group:${id}`,
    affected: impact.expireAtOnce + impact.revived,
    reason: input.reason,
    details: {
      oldTtlSeconds: before.ttlSeconds,
      newTtlSeconds: group.ttlSeconds,
      oldGraceSeconds: before.graceSeconds,
      newGraceSeconds: group.graceSeconds,
      expiredAtOnce: impact.expireAtOnce,
      revived: impact.revived,
    },
  });
  return { group, created: inserted !== undefined, change: change! };
}
