import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";

/** Rows of a raw statement; DbOrTx spans two drivers, so its execute result is untyped. */
export async function queryRows<Row = Record<string, unknown>>(db: DbOrTx, statement: SQL): Promise<Row[]> {
  const result: { rows: unknown[] } = await db.execute(statement);
  return result.rows as Row[];
}
