import type pg from "pg";
import { cpuSecondsOf } from "./processes";

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

/**
 * CPU seconds spent by one process (the server) and by the PostgreSQL backends of one
 * database (autovacuum's included), per window: a window's cost moves less with the
 * neighbours on a shared machine than its throughput does. Backends are sampled every
 * second, so a short-lived one (an autovacuum worker) counts up to its last sample.
 */
export class WindowCpu {
  private readonly seen = new Map<number, number>();
  private server: number;
  private database = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    private readonly databaseName: string,
    private readonly serverPid: number,
  ) {
    this.server = cpuSecondsOf(serverPid);
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 1000);
  }

  private async sample(): Promise<void> {
    const { rows } = await this.pool.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [this.databaseName]);
    for (const { pid } of rows) {
      const cpu = cpuSecondsOf(pid);
      if (!Number.isFinite(cpu)) continue;
      this.database += cpu - (this.seen.get(pid) ?? cpu);
      this.seen.set(pid, cpu);
    }
  }

  /** CPU used since the previous call (or since construction). */
  async next(): Promise<{ server: number; database: number }> {
    await this.sample();
    const server = cpuSecondsOf(this.serverPid);
    const used = { server: server - this.server, database: this.database };
    this.server = server;
    this.database = 0;
    return used;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
