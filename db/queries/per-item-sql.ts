/**
 * The body of a per-worker call (last-seen-decide-on-node-sql.ts, window-claim-on-node-sql.ts): a
 * one-key function's `call` (aliased `d`, over item `i` of the arrays) run once per item, taken
 * in the order of the two key arrays so that concurrent calls lock rows in one order; each row
 * answered with the item's position (`ord`, 1-based) and `columns` of `d`.
 */
export function perItemInKeyOrder(keys: readonly [string, string], call: string, columns: string): string {
  return `#variable_conflict use_column
declare
  i integer;
begin
  for i in
    select u.n from unnest(${keys[0]}, ${keys[1]}) with ordinality as u(k1, k2, n) order by u.k1, u.k2
  loop
    return query select i, ${columns} from ${call} d;
  end loop;
end`;
}
