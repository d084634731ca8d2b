import type pg from "pg";

export interface WalUse {
  /** Bytes of WAL the whole cluster wrote (other databases included). */
  clusterBytes: number;
  /** Bytes of the records that touch this database's relations, plus their transactions' commit records. */
  databaseBytes: number;
  /** The part of databaseBytes that is full-page images (first change of a page after a checkpoint). */
  fpiBytes: number;
  records: number;
}

/** pg_walinspect reads WAL records between two positions; weir's own database can then be told apart from its neighbours'. */
export async function enableWalInspect(pool: pg.Pool): Promise<void> {
  await pool.query("create extension if not exists pg_walinspect");
}

export async function currentLsn(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn");
  return rows[0]!.lsn;
}

/** WAL written between two positions, in all and attributable to this database. */
export async function walBetween(pool: pg.Pool, from: string, to: string): Promise<WalUse> {
  const { rows } = await pool.query<{ cluster: string; mine: string; fpi: string; records: string }>(
    `with r as (
       select xid, resource_manager, record_length as bytes, fpi_length as fpi, coalesce(block_ref, '') as block_ref
       from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
     ),
     here as (select oid::text as db from pg_database where datname = current_database()),
     touching as (select r.* from r, here where r.block_ref ~ ('rel [0-9]+/' || here.db || '/')),
     commits as (
       select r.* from r where r.resource_manager = 'Transaction' and r.xid <> 0
         and r.xid in (select xid from touching where xid <> 0)
     )
     select pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::text as cluster,
       (coalesce((select sum(bytes) from touching), 0) + coalesce((select sum(bytes) from commits), 0))::text as mine,
       coalesce((select sum(fpi) from touching), 0)::text as fpi,
       ((select count(*) from touching) + (select count(*) from commits))::text as records`,
    [from, to],
  );
  const row = rows[0]!;
  return { clusterBytes: Number(row.cluster), databaseBytes: Number(row.mine), fpiBytes: Number(row.fpi), records: Number(row.records) };
}

/**
 * Keeps the cluster's WAL from now on until `release`, so that walBetween can still read it: a
 * neighbour's CHECKPOINT on a shared cluster may otherwise recycle the segments first. A temporary
 * physical slot on a connection of its own; it goes with that connection.
 */
export async function reserveWal(pool: pg.Pool): Promise<{ release(): Promise<void> }> {
  const client = await pool.connect();
  const slot = `weir_bench_${process.pid}`;
  await client.query("select pg_create_physical_replication_slot($1, true, true)", [slot]);
  return {
    async release() {
      try {
        await client.query("select pg_drop_replication_slot($1)", [slot]);
      } finally {
        client.release();
      }
    },
  };
}
