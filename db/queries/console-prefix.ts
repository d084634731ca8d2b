import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../types";
import { queryRows } from "./console-rows";

const codePointOrder = new WeakMap<object, Promise<boolean>>();

/**
 * Whether the database sorts text by code point (C, POSIX, C.UTF-8 or the builtin
 * provider). Only then is "prefix <= id < successor" the same set as "id starts
 * with prefix", and only then may a prefix filter become an index range.
 */
export function sortsByCodePoint(db: DbOrTx): Promise<boolean> {
  let known = codePointOrder.get(db);
  if (!known) {
    known = queryRows<{ code_point: boolean }>(
      db,
      sql`
        select (datlocprovider = 'b' or (datlocprovider = 'c' and datcollate in ('C', 'POSIX', 'C.UTF-8', 'C.utf8')))
          as code_point
        from pg_database where datname = current_database()`)
      .then((result) => result[0]?.code_point === true)
      .catch((err) => {
        codePointOrder.delete(db);
        throw err;
      });
    codePointOrder.set(db, known);
  }
  return known;
}

/** The smallest string greater than every string that starts with `prefix`; null when there is none. */
export function prefixSuccessor(prefix: string): string | null {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    let last = points.pop()! + 1;
    if (last >= 0xd800 && last <= 0xdfff) last = 0xe000;
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last);
  }
  return null;
}

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column` starts with `prefix`: always exact (LIKE), and an index range where the collation allows it. */
export async function startsWith(db: DbOrTx, column: SQL, prefix: string): Promise<SQL> {
  const exact = sql`${column} like ${escapeLike(prefix) + "%"} escape '\\'`;
  if (!(await sortsByCodePoint(db))) return exact;
  const successor = prefixSuccessor(prefix);
  const upper = successor === null ? sql`` : sql` and ${column} < ${successor}`;
  return sql`(${column} >= ${prefix}${upper} and ${exact})`;
}
