import pg from "pg";
import { migratePostgres } from "@/db/migrate";
import { PrivatePostgres } from "../faults/private-postgres";

/** Settings every node of a private Citus cluster needs (a small shard count: tests create many databases). */
const NODE_SETTINGS = {
  shared_preload_libraries: "'citus'",
  max_connections: "200",
  max_prepared_transactions: "100",
  "citus.shard_count": "8",
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
  for (const worker of ports.workers) await exec(ports.coordinator, name, "select citus_add_node('127.0.0.1', $1)", [worker]);
  return urlOf(ports.coordinator, name);
}

/** A Citus database with weir's migrations applied: migrate distributes the tables itself. */
export async function createMigratedCitusDatabase(ports: CitusPorts, name: string): Promise<string> {
  const url = await createCitusDatabase(ports, name);
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

  createDatabase(name: string): Promise<string> {
    return createMigratedCitusDatabase(this.ports, name);
  }

  async destroy(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.destroy()));
  }
}
