import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "@/db/schema";
import { windowRecords } from "@/db/schema";
import type { Store } from "@/db/client";
import type { DbOrTx } from "@/db/types";
import { startTestApi } from "@/test/api-server";

export const uniqueGroup = (prefix = "grp") => `${prefix}-${randomBytes(4).toString("hex")}`;

/** Moves records back in time, as if they had been claimed `seconds` earlier. */
export async function ageRecords(db: DbOrTx, group: string, seconds: number, messageIds?: string[]): Promise<void> {
  const byGroup = eq(windowRecords.consumerGroup, group);
  await db
    .update(windowRecords)
    // Through UTC timestamps: Citus refuses timestamptz - interval (stable) on a column in an UPDATE.
    .set({ claimedAt: sql`((claimed_at at time zone 'UTC') - ${`${seconds} seconds`}::interval) at time zone 'UTC'` })
    .where(messageIds ? and(byGroup, inArray(windowRecords.messageId, messageIds)) : byGroup);
}

export async function countRecords(db: DbOrTx, group: string): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from window_records where consumer_group = ${group}`);
  return Number(result.rows[0]!.n);
}

/**
 * Inserts `count` records of a group claimed `ageSeconds` ago, straight into
 * the table: seeding thousands of rows through claims would only slow tests.
 */
export async function seedRecords(db: DbOrTx, group: string, count: number, ageSeconds: number, prefix = "m"): Promise<void> {
  await db.execute(sql`insert into window_records (consumer_group, message_id, claimed_at)
    select ${group}, ${prefix} || '-' || g, now() - ${`${ageSeconds} seconds`}::interval from generate_series(1, ${count}) g`);
}

/**
 * Runs `work` on a pool of its own with `size` connections, opened up front so
 * that `size` operations really run at once; the pool is closed afterwards.
 */
export async function withWideDb<T>(url: string, size: number, work: (db: DbOrTx) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: size });
  try {
    const clients = await Promise.all(Array.from({ length: size }, () => pool.connect()));
    for (const client of clients) client.release();
    return await work(drizzle({ client: pool, schema }));
  } finally {
    await pool.end();
  }
}

export interface RouteResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies freely
  body: any;
}

/** Calls the real API handler (routing, body parsing, error mapping) over HTTP. */
export async function routeCaller(store: Store) {
  const api = await startTestApi(async () => store);
  return async (method: string, path: string, body?: unknown): Promise<RouteResponse> => {
    const response = await api.request(method, path, body);
    return { status: response.status, body: response.body };
  };
}
