import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { serviceHashSettings, services } from "../schema";
import type { DbOrTx } from "../types";

export type ServiceRow = typeof services.$inferSelect;

export interface ServiceFields {
  displayName: string;
  ignoredPaths: string[];
  includedPaths: string[];
  normalise: string[];
  historyDepth: number;
}

export type HashSettingsRow = typeof serviceHashSettings.$inferSelect;

export async function findServices(db: DbOrTx, ids: readonly string[]): Promise<ServiceRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(services).where(inArray(services.id, [...ids]));
}

/** `lock`: the row is locked for update until the transaction ends. */
export async function findService(db: DbOrTx, id: string, { lock = false } = {}): Promise<ServiceRow | undefined> {
  const query = db.select().from(services).where(eq(services.id, id));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function listServices(db: DbOrTx): Promise<ServiceRow[]> {
  return db.select().from(services).orderBy(asc(services.id));
}

/** Every service's id and name only: what a page that names services needs, without parsing every setting of each. */
export async function listServiceLabels(db: DbOrTx): Promise<Pick<ServiceRow, "id" | "displayName">[]> {
  return db.select({ id: services.id, displayName: services.displayName }).from(services).orderBy(asc(services.id));
}

/**
 * Inserts or replaces a service's settings; returns the row and whether it existed. Changing the
 * ignored or included paths or the normalisations (given sorted, so order alone is no change) is a new hash version,
 * counted by the same statement so that two concurrent saves cannot take the same number.
 */
export async function upsertService(
  db: DbOrTx,
  id: string,
  fields: ServiceFields,
): Promise<{ row: ServiceRow; created: boolean }> {
  const [row] = await db
    .insert(services)
    .values({ id, ...fields })
    .onConflictDoUpdate({
      target: services.id,
      // The inserted row's default, not now(): Citus refuses functions in ON CONFLICT ... SET.
      set: {
        ...fields,
        updatedAt: sql`excluded.updated_at`,
        hashVersion: sql`case when ${services.ignoredPaths} = excluded.ignored_paths and ${services.includedPaths} = excluded.included_paths
            and ${services.normalise} = excluded.normalise
          then ${services.hashVersion} else ${services.hashVersion} + 1 end`,
      },
    })
    .returning({ ...getTableColumns(services), created: sql<boolean>`(xmax = 0)` });
  if (!row) throw new Error(`upsert of service ${id} returned no row`);
  const { created, ...service } = row;
  await db
    .insert(serviceHashSettings)
    .values({
      serviceId: id,
      hashVersion: service.hashVersion,
      ignoredPaths: service.ignoredPaths,
      includedPaths: service.includedPaths,
      normalise: service.normalise,
    })
    .onConflictDoNothing();
  return { row: service, created };
}

/** One version of a service's hash settings (never changed once written). */
export async function findHashSettings(db: DbOrTx, serviceId: string, hashVersion: number): Promise<HashSettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(serviceHashSettings)
    .where(and(eq(serviceHashSettings.serviceId, serviceId), eq(serviceHashSettings.hashVersion, hashVersion)));
  return row;
}
