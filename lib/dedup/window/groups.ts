import { and, asc, desc, eq, lt } from "drizzle-orm";
import { consumerGroups, ttlChanges } from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";

export type ConsumerGroupRow = typeof consumerGroups.$inferSelect;
export type TtlChangeRow = typeof ttlChanges.$inferSelect;

/** Grace period actually applied: null means one TTL. */
export const effectiveGraceSeconds = (group: { ttlSeconds: number; graceSeconds: number | null }) =>
  group.graceSeconds ?? group.ttlSeconds;

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asStoreError(err);
  }
}

export function findConsumerGroup(db: DbOrTx, id: string): Promise<ConsumerGroupRow | undefined> {
  return guarded(async () => {
    const [row] = await db.select().from(consumerGroups).where(eq(consumerGroups.id, id));
    return row;
  });
}

export function listConsumerGroups(db: DbOrTx): Promise<ConsumerGroupRow[]> {
  return guarded(() => db.select().from(consumerGroups).orderBy(asc(consumerGroups.id)));
}

/** A group's TTL changes, newest first; `beforeId` pages back through older ones. */
export function listTtlChanges(
  db: DbOrTx,
  consumerGroup: string,
  page: { limit: number; beforeId?: number },
): Promise<TtlChangeRow[]> {
  const byGroup = eq(ttlChanges.consumerGroup, consumerGroup);
  const where = page.beforeId === undefined ? byGroup : and(byGroup, lt(ttlChanges.id, page.beforeId));
  return guarded(() => db.select().from(ttlChanges).where(where).orderBy(desc(ttlChanges.id)).limit(page.limit));
}
