import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";

const DAY_MS = 86_400_000;
const PARTITION_NAME = /^journal_p(\d{4})(\d{2})(\d{2})$/;
// Creators of one day's partition, on any node, take turns: CREATE ... IF NOT EXISTS alone races.
const PARTITION_LOCK = 7_347_014;

/** The partition holding a day (UTC): journal_pYYYYMMDD. */
export function partitionName(dayStartMs: number): string {
  return `journal_p${new Date(dayStartMs).toISOString().slice(0, 10).replaceAll("-", "")}`;
}

export const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Creates the partitions of these days (UTC day starts, ms) that do not exist yet. Each gets
 * REPLICA IDENTITY FULL: the journal has no key, and logical replication (a Citus shard move
 * in its default mode, a logical replica) refuses or fails on a table without an identity. It
 * costs WAL only on deletes (erasure). A partition made before this rule gets it here too.
 */
export async function createJournalPartitions(db: DbOrTx, days: readonly number[]): Promise<void> {
  if (days.length === 0) return;
  await db.transaction(async (tx) => {
    await runRaw(tx, { name: "weir_journal_partition_lock_v1", text: "select pg_advisory_xact_lock($1)", values: [PARTITION_LOCK] });
    for (const day of days) {
      const name = partitionName(day);
      const [found] = await runRaw<{ identity: string }>(tx, {
        name: "weir_journal_partition_identity_v1",
        text: "select relreplident as identity from pg_class where oid = to_regclass($1)",
        values: [name],
      });
      if (found?.identity === "f") continue;
      const from = new Date(day).toISOString();
      const to = new Date(day + DAY_MS).toISOString();
      // The name and bounds come from a number, never from input: safe to inline (DDL takes no parameters).
      if (!found) await runRaw(tx, { name: "", text: `create table ${name} partition of journal for values from ('${from}') to ('${to}')`, values: [] });
      await runRaw(tx, { name: "", text: `alter table ${name} replica identity full`, values: [] });
    }
  });
}

/** Every partition of the journal, by the day it holds (UTC day start, ms). */
export async function listJournalPartitions(db: DbOrTx): Promise<{ name: string; day: number }[]> {
  const rows = await runRaw<{ name: string }>(db, {
    name: "weir_journal_partitions_v1",
    text: "select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'journal'::regclass",
    values: [],
  });
  return rows.flatMap(({ name }) => {
    const found = PARTITION_NAME.exec(name);
    return found ? [{ name, day: Date.UTC(Number(found[1]), Number(found[2]) - 1, Number(found[3])) }] : [];
  });
}

/** Drops whole partitions whose every entry is older than `cutoffMs`: retention that writes nothing. Returns the dropped names. */
export async function dropJournalPartitionsBefore(db: DbOrTx, cutoffMs: number): Promise<string[]> {
  const old = (await listJournalPartitions(db)).filter((p) => p.day + DAY_MS <= cutoffMs);
  for (const { name } of old) await runRaw(db, { name: "", text: `drop table if exists ${name}`, values: [] });
  return old.map((p) => p.name);
}
