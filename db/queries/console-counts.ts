import { sql } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

/** The stored claims of one group, counted up to `cap` + 1 through the primary key (index-only, never past the cap). */
export async function countGroupRecords(db: DbOrTx, group: string, cap: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`
    select count(*)::int as n from (select 1 from window_records where consumer_group = ${group} limit ${cap + 1}) r`);
  return Number(row?.n ?? 0);
}
