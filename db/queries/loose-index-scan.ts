import { sql, type SQL } from "drizzle-orm";

/**
 * Each distinct value of `column` in `table`, as a subquery of one column, `value`: one probe of an
 * index that leads with the column per value (a loose index scan, which PostgreSQL does not plan by
 * itself: a plain distinct reads every row). Not on Citus, which refuses a recursive CTE over a
 * distributed table: callers there read a distinct per shard.
 */
export function distinctByProbes(table: string, column: string): SQL {
  const [t, c] = [sql.identifier(table), sql.identifier(column)];
  return sql`(with recursive v as (
      (select ${c} as value from ${t} order by ${c} limit 1)
      union all
      select (select p.${c} from ${t} p where p.${c} > v.value order by p.${c} limit 1) from v where v.value is not null
    ) select value from v where value is not null)`;
}
