import type { DbOrTx } from "./types";
import { setting } from "@/lib/config";

/** A statement for the hot path: the name makes node-postgres prepare it once per connection. */
export interface RawStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * WEIR_PG_PREPARED=0 sends every statement unnamed (parse, bind, execute each time): what
 * PgBouncer in transaction mode needs, since a named statement lives on one server
 * connection and the next transaction may get another. Costs a parse per statement.
 */
const PREPARED = setting("WEIR_PG_PREPARED");

interface QueryableClient {
  query(...args: unknown[]): Promise<{ rows: unknown[] }>;
  connect?: unknown;
}

/**
 * Runs a raw statement on the connection behind a drizzle db or transaction.
 * Drizzle's own `execute` cannot name statements; the hot path needs prepared
 * statements, so this reaches the driver client that drizzle already holds.
 */
export async function runRaw<Row>(db: DbOrTx, statement: RawStatement): Promise<Row[]> {
  const client = (db as unknown as { session: { client: QueryableClient } }).session.client;
  // pg's Pool, Client and PoolClient all have connect(); PGlite and its transactions do not.
  if (typeof client.connect === "function") {
    const name = PREPARED ? statement.name : undefined;
    const result = await client.query({ name, text: statement.text, values: statement.values });
    return result.rows as Row[];
  }
  const result = await client.query(statement.text, statement.values);
  return result.rows as Row[];
}
