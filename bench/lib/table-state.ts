import type pg from "pg";

export interface TableState {
  updates: number;
  hotUpdates: number;
  live: number;
  dead: number;
  autovacuums: number;
  /** Heap, indexes and TOAST. */
  bytes: number;
}

/** A table's cumulative write counters and current size, from pg_stat_user_tables. */
export async function tableState(pool: pg.Pool, table = "last_seen"): Promise<TableState> {
  const { rows } = await pool.query<Record<string, string>>(
    `select n_tup_upd, n_tup_hot_upd, n_live_tup, n_dead_tup, autovacuum_count, pg_total_relation_size(relid) as bytes
     from pg_stat_user_tables where relname = $1`,
    [table],
  );
  const row = rows[0];
  if (!row) throw new Error(`no statistics for ${table}`);
  return {
    updates: Number(row.n_tup_upd),
    hotUpdates: Number(row.n_tup_hot_upd),
    live: Number(row.n_live_tup),
    dead: Number(row.n_dead_tup),
    autovacuums: Number(row.autovacuum_count),
    bytes: Number(row.bytes),
  };
}
