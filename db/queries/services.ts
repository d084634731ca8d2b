import { asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { services } from "../schema";
import type { DbOrTx } from "../types";

export type ServiceRow = typeof services.$inferSelect;

export interface ServiceFields {
  displayName: string;
  ignoredPaths: string[];
  historyDepth: number;
}

export async function findServices(db: DbOrTx, ids: readonly string[]): Promise<ServiceRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(services).where(inArray(services.id, [...ids]));
}

export async function findService(db: DbOrTx, id: string): Promise<ServiceRow | undefined> {
  const [row] = await db.select().from(services).where(eq(services.id, id));
  return row;
}

export async function listServices(db: DbOrTx): Promise<ServiceRow[]> {
  return db.select().from(services).orderBy(asc(services.id));
}

/** Inserts or replaces a service's settings; returns the row and whether it existed. */
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
      set: { ...fields, updatedAt: sql`excluded.updated_at` },
    })
    .returning({ ...getTableColumns(services), created: sql<boolean>`(xmax = 0)` });
  if (!row) throw new Error(`upsert of service ${id} returned no row`);
  const { created, ...service } = row;
  return { row: service, created };
}
