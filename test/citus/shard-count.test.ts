import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SHARD_COUNT } from "@/db/citus";
import { migratePostgres } from "@/db/migrate";
import { PrivatePostgres } from "../faults/private-postgres";
import { createCitusDatabase } from "./citus-cluster";

/**
 * The shard count weir creates: its own (DEFAULT_SHARD_COUNT) where nothing sets citus.shard_count,
 * the database's where the operator set it before the first migration. A single-node Citus (the
 * coordinator holds the shards) with no shard count in its configuration, unlike the suite's cluster.
 */
let node: PrivatePostgres;

beforeAll(async () => {
  node = await PrivatePostgres.create({ shared_preload_libraries: "'citus'", max_prepared_transactions: "20" });
});
afterAll(() => node?.destroy());

/** A database on the single node, its shards on the coordinator, migrated by weir (`shardCount` set on it first, if given). */
async function migrated(database: string, shardCount?: number): Promise<void> {
  const url = await createCitusDatabase({ coordinator: node.port, workers: [] }, database);
  await node.query("select citus_set_node_property('127.0.0.1', $1, 'shouldhaveshards', true)", [node.port], database);
  if (shardCount !== undefined) await node.query(`alter database ${database} set citus.shard_count = ${shardCount}`);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
}

async function shardsOfLastSeen(database: string): Promise<number> {
  const [row] = await node.query<{ n: string }>("select count(*) as n from pg_dist_shard where logicalrelid = 'last_seen'::regclass", [], database);
  return Number(row!.n);
}

describe("the shard count weir creates", () => {
  it("is weir's own where citus.shard_count is left at Citus's default", async () => {
    await migrated("weir_shards_default");
    expect(DEFAULT_SHARD_COUNT).not.toBe(32);
    expect(await shardsOfLastSeen("weir_shards_default")).toBe(DEFAULT_SHARD_COUNT);
    // Every co-located table follows it.
    const [row] = await node.query<{ n: string }>(
      "select count(distinct shardcount) as n from pg_dist_partition p join pg_dist_colocation c using (colocationid) where p.partmethod = 'h'",
      [],
      "weir_shards_default",
    );
    expect(Number(row!.n)).toBe(1);
  });

  it("is the database's where the operator set it before the first migration", async () => {
    await migrated("weir_shards_set", 12);
    expect(await shardsOfLastSeen("weir_shards_set")).toBe(12);
  });
});
