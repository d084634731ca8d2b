import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";

/**
 * A one-connection pool whose session logs every command Citus sends to the workers
 * (citus.log_remote_commands), so a test sees how a statement runs and commits: one
 * `PREPARE TRANSACTION` per worker is a two-phase commit.
 */
export function remoteCommandsPool(url: string): { pool: pg.Pool; commands: string[] } {
  const commands: string[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1, options: "-c citus.log_remote_commands=on" });
  pool.on("connect", (client) =>
    client.on("notice", (notice) => {
      if (notice.message?.startsWith("issuing ")) commands.push(notice.message.slice("issuing ".length));
    }),
  );
  return { pool, commands };
}

export const twoPhaseCommits = (commands: readonly string[]) => commands.filter((command) => command.startsWith("PREPARE TRANSACTION"));

/**
 * The two-phase commit records of every node (pg_dist_transaction), summed: what a worker
 * coordinates itself (a delegated function's writes) shows here, not in the coordinator's log.
 */
export async function twoPhaseRecords(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `select (select count(*) from pg_dist_transaction)
      + (select coalesce(sum(result::int8), 0) from run_command_on_workers('select count(*) from pg_dist_transaction')) as n`,
  );
  return Number(rows[0]!.n);
}

/** The shard a command names, as `table_shardid` (e.g. journal_102094), or undefined. */
export function shardOf(command: string, table: string): string | undefined {
  return new RegExp(`^INSERT INTO public\\.(${table}_\\d+) `).exec(command)?.[1];
}

/**
 * Runs `operation` on a drizzle db over a logging pool and answers the two-phase commits it made:
 * the coordinator's PREPARE TRANSACTION commands, and new records on any node (a delegated call's).
 */
export async function twoPhaseCommitsOf(url: string, check: pg.Pool, operation: (db: DbOrTx) => Promise<unknown>): Promise<{ prepared: string[]; records: number }> {
  const logged = remoteCommandsPool(url);
  try {
    const before = await twoPhaseRecords(check);
    await operation(drizzle({ client: logged.pool, schema }));
    return { prepared: twoPhaseCommits(logged.commands), records: Math.max(0, (await twoPhaseRecords(check)) - before) };
  } finally {
    await logged.pool.end();
  }
}
