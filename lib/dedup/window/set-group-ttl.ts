import { eq, sql } from "drizzle-orm";
import { auditBy } from "@/db/queries/audit";
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
  /** Sliding window; omitted: keep the current setting (off for a new group). */
  slide?: boolean;
  reason: string | null;
  actor: Actor;
}

export interface SetGroupTtlResult {
  group: ConsumerGroupRow;
  created: boolean;
  /** The TTL history row written, or null when TTL and grace were already these (a slide-only change is in the audit log). */
  change: TtlChangeRow | null;
  /** Whether any setting changed (and an audit row was written). */
  changed: boolean;
}

/**
 * Creates a consumer group or changes its TTL/grace/slide. The settings, the history
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
    .values({ id, ttlSeconds: input.ttlSeconds, graceSeconds: input.graceSeconds ?? null, slide: input.slide ?? false })
    .onConflictDoNothing({ target: consumerGroups.id })
    .returning();
  let group: ConsumerGroupRow;
  let before: { ttlSeconds: number; graceSeconds: number | null; slide: boolean };
  if (inserted) {
    group = inserted;
    before = { ttlSeconds: defaultTtlSeconds(), graceSeconds: null, slide: false };
  } else {
    const [current] = await tx.select().from(consumerGroups).where(eq(consumerGroups.id, id)).for("update");
    if (!current) throw new Error(`consumer group ${id} vanished while it was locked`);
    const graceSeconds = input.graceSeconds === undefined ? current.graceSeconds : input.graceSeconds;
    const slide = input.slide ?? current.slide;
    if (current.ttlSeconds === input.ttlSeconds && current.graceSeconds === graceSeconds && current.slide === slide) {
      return { group: current, created: false, change: null, changed: false };
    }
    before = current;
    const [updated] = await tx
      .update(consumerGroups)
      .set({ ttlSeconds: input.ttlSeconds, graceSeconds, slide, updatedAt: sql`now()` })
      .where(eq(consumerGroups.id, id))
      .returning();
    group = updated!;
  }
  const windowChanged = inserted !== undefined || before.ttlSeconds !== group.ttlSeconds || before.graceSeconds !== group.graceSeconds;
  const impact = await measureTtlImpact(tx, id, before.ttlSeconds, group.ttlSeconds);
  const [change] = !windowChanged ? [null] : await tx
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
  await auditBy(tx, input.actor, {
    action: inserted ? "consumer_group.create" : windowChanged ? "consumer_group.ttl_change" : "consumer_group.slide_change",
    target: `consumer_group:${id}`,
    affected: impact.expireAtOnce + impact.revived,
    reason: input.reason,
    details: {
      oldTtlSeconds: before.ttlSeconds,
      newTtlSeconds: group.ttlSeconds,
      oldGraceSeconds: before.graceSeconds,
      newGraceSeconds: group.graceSeconds,
      oldSlide: before.slide,
      newSlide: group.slide,
      expiredAtOnce: impact.expireAtOnce,
      revived: impact.revived,
    },
  });
  return { group, created: inserted !== undefined, change: change ?? null, changed: true };
}
