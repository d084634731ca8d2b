import pg from "pg";
import { migratePostgres } from "@/db/migrate";
import { PrivatePostgres } from "../faults/private-postgres";

/**
 * Settings every node of a private Citus cluster needs (a small shard count: tests create many
 * databases). Shards move by logical replication (citus_rebalance_start's default): every node
 * needs wal_level = logical, a replication slot and a WAL sender per move it is the source of,
 * and worker processes for the subscriptions, the rebalancer's task executors and one
 * maintenance daemon per Citus database.
 */
export const NODE_SETTINGS = {
  shared_preload_libraries: "'citus'",
  max_connections: "200",
  max_prepared_transactions: "100",
  "citus.shard_count": "8",
  wal_level: "logical",
  max_replication_slots: "16",
  max_wal_senders: "16",
  max_worker_processes: "32",
  max_logical_replication_workers: "8",
};

export interface CitusPorts {
  coordinator: number;
  workers: number[];
}

const urlOf = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;

async function exec(port: number, database: string, sql: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: urlOf(port, database), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** Creates `name` on every node with citus in it, and joins the workers to the coordinator's metadata. */
export async function createCitusDatabase(ports: CitusPorts, name: string): Promise<string> {
  await Promise.all(
    [ports.coordinator, ...ports.workers].map(async (port) => {
      if (name !== "postgres") await exec(port, "postgres", `create database "${name}"`);
      await exec(port, name, "create extension if not exists citus");
    }),
  );
  await exec(ports.coordinator, name, "select citus_set_coordinator_host('127.0.0.1', $1)", [ports.coordinator]);
  for (const worker of ports.workers) await addNode(ports.coordinator, name, worker);
  return urlOf(ports.coordinator, name);
}

/** Any key of weir's own; only addNode takes it. */
const NODE_ACTIVATION_LOCK = 7_262_451;

/**
 * Joins the node on `nodePort` to database `name`'s cluster, one such join at a time across the
 * run: a session advisory lock in the coordinator's `postgres` database, which every test file's
 * setup shares, is held around it. Adding a node sends it every role first (Citus syncs node-wide
 * objects before the rest), and roles live in one catalog per node, not per database: two files
 * adding nodes at once update the same role rows on a worker, and one fails ("failure on
 * connection marked as essential", seen in CI with two files at a time).
 */
async function addNode(coordinatorPort: number, name: string, nodePort: number): Promise<void> {
  const lock = new pg.Client({ connectionString: urlOf(coordinatorPort, "postgres"), connectionTimeoutMillis: 5000 });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock($1)", [NODE_ACTIVATION_LOCK]);
    await exec(coordinatorPort, name, "select citus_add_node('127.0.0.1', $1)", [nodePort]);
  } finally {
    await lock.end();
  }
}

/**
 * A Citus database with weir's migrations applied: migrate distributes the tables itself, with
 * `shardCount` shards when given (set on the database before the first migration, as docs/citus.md says).
 */
export async function createMigratedCitusDatabase(ports: CitusPorts, name: string, shardCount?: number): Promise<string> {
  const url = await createCitusDatabase(ports, name);
  if (shardCount !== undefined) await exec(ports.coordinator, name, `alter database "${name}" set citus.shard_count = ${Number(shardCount)}`);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migratePostgres(pool);
  } finally {
    await pool.end();
  }
  return url;
}

export async function dropCitusDatabase(ports: CitusPorts, name: string): Promise<void> {
  for (const port of [ports.coordinator, ...ports.workers]) {
    await exec(port, "postgres", `drop database if exists "${name}" with (force)`).catch(() => undefined);
  }
}

/**
 * A coordinator and two workers on loopback ports, each a PrivatePostgres
 * (initdb into a temp dir) with citus preloaded.
 */
export class CitusCluster {
  private readonly spare: PrivatePostgres[] = [];

  private constructor(
    readonly coordinator: PrivatePostgres,
    readonly workers: PrivatePostgres[],
  ) {}

  static async create(workerCount = 2): Promise<CitusCluster> {
    const nodes = await Promise.all(Array.from({ length: workerCount + 1 }, () => PrivatePostgres.create(NODE_SETTINGS)));
    return new CitusCluster(nodes[0]!, nodes.slice(1));
  }

  get ports(): CitusPorts {
    return { coordinator: this.coordinator.port, workers: this.workers.map((w) => w.port) };
  }

  get nodes(): PrivatePostgres[] {
    return [this.coordinator, ...this.workers];
  }

  createDatabase(name: string, shardCount?: number): Promise<string> {
    return createMigratedCitusDatabase(this.ports, name, shardCount);
  }

  /** Starts one more node with the cluster's settings; it is no part of the cluster until addWorker. */
  async startNode(): Promise<PrivatePostgres> {
    const node = await PrivatePostgres.create(NODE_SETTINGS);
    this.spare.push(node);
    return node;
  }

  /**
   * Joins a node from startNode as a worker of each of these databases (citus_add_node syncs
   * the metadata and weir's functions to it). It holds no shards until a rebalance moves some.
   */
  async addWorker(node: PrivatePostgres, databases: string[]): Promise<void> {
    this.spare.splice(this.spare.indexOf(node), 1);
    this.workers.push(node);
    for (const name of databases) {
      await exec(node.port, "postgres", `create database "${name}"`);
      await exec(node.port, name, "create extension if not exists citus");
      // The rebalance test joins its node alone (the timed group), so no other join can race it.
      await exec(this.coordinator.port, name, "select citus_add_node('127.0.0.1', $1)", [node.port]);
    }
  }

  async destroy(): Promise<void> {
    await Promise.all([...this.nodes, ...this.spare].map((node) => node.destroy()));
  }
}
