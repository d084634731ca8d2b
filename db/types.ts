import type { PgDatabase } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/**
 * A drizzle database or a transaction opened on one, over node-postgres or
 * PGlite. Every query and engine function takes one, so a caller can run it
 * inside its own transaction (library mode).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the HKT differs per driver
export type DbOrTx = PgDatabase<any, typeof schema>;

export type StoreKind = "postgres" | "pglite";
