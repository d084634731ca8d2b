import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { checkMany, hashForService } from "@/lib/dedup/last-seen/check";
import { serviceConfigs } from "@/lib/dedup/last-seen/service-config";
import { decideOnShardsStatement, type DecideRow } from "@/lib/dedup/last-seen/statement";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";

const MOVE_TIMEOUT_MS = 90_000;

/**
 * A worker's checks, one statement per shard (weir_last_seen_decide_on_shards_v1): the batch
 * statement on the shard's own table when the shard is on the worker and nothing keeps history,
 * the one-key function per item otherwise; and no write lost to a shard that moves meanwhile.
 */
let store: TestDatabase;
const workerPorts = inject("citusPorts").workers;

beforeAll(async () => {
  store = await createTestDatabase();
});

async function shardOf(key: string): Promise<string> {
  const { rows } = await store.pool!.query<{ shard: string }>("select get_shard_id_for_distribution_column('last_seen', $1::text) as shard", [key]);
  return rows[0]!.shard;
}

async function portOfShard(shard: string): Promise<number> {
  const { rows } = await store.pool!.query<{ port: number }>(
    "select n.nodeport as port from pg_dist_placement p join pg_dist_node n using (groupid) where p.shardid = $1",
    [shard],
  );
  return rows[0]!.port;
}

/** `count` keys on the worker at `port`, over more than one of its shards. */
async function keysOn(port: number, count: number, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; keys.length < count; i++) {
    const key = `${prefix}-${i}`;
    if ((await portOfShard(await shardOf(key))) === port) keys.push(key);
  }
  return keys;
}

/**
 * Runs the call on the worker itself, in a transaction that counts the one-key function's calls
 * (pg_stat_xact_user_functions): none means every item went through its shard's statement.
 */
async function callOnWorker(port: number, statement: ReturnType<typeof decideOnShardsStatement>, role = "postgres") {
  const client = new pg.Client({ connectionString: `postgres://${role}@127.0.0.1:${port}/${store.name}` });
  await client.connect();
  try {
    await client.query("begin");
    // track_functions is for superusers to set: another role gets it from ALTER ROLE.
    if (role === "postgres") await client.query("set local track_functions = 'pl'");
    const { rows } = await client.query<DecideRow>(statement.text, statement.values);
    const { rows: counted } = await client.query<{ calls: string }>(
      "select coalesce(sum(calls), 0) as calls from pg_stat_xact_user_functions where funcname = 'weir_last_seen_decide_v5'",
    );
    await client.query("commit");
    return { rows: rows.sort((a, b) => a.ord - b.ord).map((row) => `${row.ord}:${row.decision}:${row.version}`), oneKeyCalls: Number(counted[0]!.calls) };
  } finally {
    await client.end();
  }
}

async function statementFor(serviceId: string, keys: readonly string[], payload: string) {
  const config = await serviceConfigs.require(store.db, serviceId);
  return decideOnShardsStatement(keys.map((key) => hashForService(config, key, payload)));
}

describe("a worker's checks, one statement per shard", () => {
  it("keys of the worker's shards: decided on the shards' tables, the one-key function never called", async () => {
    const serviceId = await createService(store.db);
    const port = workerPorts[0]!;
    const keys = await keysOn(port, 24, "os");
    expect(new Set(await Promise.all(keys.map(shardOf))).size).toBeGreaterThan(1);

    const first = await callOnWorker(port, await statementFor(serviceId, keys, '{"v":1}'));
    expect(first).toEqual({ rows: keys.map((_, i) => `${i + 1}:new:1`), oneKeyCalls: 0 });
    const mixed = keys.map((_, i) => (i % 3 === 0 ? '{"v":2}' : '{"v":1}'));
    const config = await serviceConfigs.require(store.db, serviceId);
    const again = await callOnWorker(port, decideOnShardsStatement(keys.map((key, i) => hashForService(config, key, mixed[i]!))));
    expect(again).toEqual({ rows: keys.map((_, i) => (i % 3 === 0 ? `${i + 1}:changed:2` : `${i + 1}:duplicate:1`)), oneKeyCalls: 0 });
    // What the coordinator reads through the distributed table is what was written.
    const { rows } = await store.pool!.query<{ n: string }>("select count(*) as n from last_seen where service_id = $1 and version = 2", [serviceId]);
    expect(Number(rows[0]!.n)).toBe(keys.filter((_, i) => i % 3 === 0).length);
  });

  it("keys that need quoting in an array literal reach the shard statement intact", async () => {
    const serviceId = await createService(store.db);
    const port = workerPorts[0]!;
    const keys: string[] = [];
    for (const base of ["q'uote", "back\\slash", "{brace}", "com,ma", "NULL", '"dq"', "sp ace", "ünï-⚡"]) {
      keys.push((await keysOn(port, 1, base))[0]!);
    }
    expect(await callOnWorker(port, await statementFor(serviceId, keys, '{"v":1}'))).toEqual({ rows: keys.map((_, i) => `${i + 1}:new:1`), oneKeyCalls: 0 });
    const { rows } = await store.pool!.query<{ message_id: string }>("select message_id from last_seen where service_id = $1 order by message_id", [serviceId]);
    expect(rows.map((row) => row.message_id)).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await callOnWorker(port, await statementFor(serviceId, keys, '{"v":1}'))).rows).toEqual(keys.map((_, i) => `${i + 1}:duplicate:1`));
  });

  it("a role that does not own the tables, with the grants weir's runtime role gets: the same answers", async () => {
    const serviceId = await createService(store.db);
    const port = workerPorts[0]!;
    const keys = await keysOn(port, 12, "or");
    const role = `weir_app_${store.name}`;
    await store.pool!.query(`create role ${role} login`);
    try {
      await store.pool!.query(`alter role ${role} set track_functions = 'pl'`);
      await store.pool!.query(`grant select, insert, update, delete on all tables in schema public to ${role}`);
      const result = await callOnWorker(port, await statementFor(serviceId, keys, '{"v":1}'), role);
      expect(result).toEqual({ rows: keys.map((_, i) => `${i + 1}:new:1`), oneKeyCalls: 0 });
    } finally {
      await store.pool!.query(`drop owned by ${role}`);
      await store.pool!.query(`drop role ${role}`);
    }
  });

  it("a service that keeps history: each item through the one-key function, its payloads kept", async () => {
    const serviceId = await createService(store.db, { historyDepth: 2 });
    const port = workerPorts[0]!;
    const keys = await keysOn(port, 6, "oh");
    const result = await callOnWorker(port, await statementFor(serviceId, keys, '{"v":1}'));
    expect(result).toEqual({ rows: keys.map((_, i) => `${i + 1}:new:1`), oneKeyCalls: keys.length });
    const { rows } = await store.pool!.query<{ n: string }>("select count(*) as n from payload_versions where message_id = any($1)", [keys]);
    expect(Number(rows[0]!.n)).toBe(keys.length);
  });

  it("keys whose shards are on another worker: each item through the one-key function, which Citus routes", async () => {
    const serviceId = await createService(store.db);
    const [here, there] = workerPorts as [number, number];
    const keys = await keysOn(there, 5, "ot");
    const result = await callOnWorker(here, await statementFor(serviceId, keys, '{"v":1}'));
    expect(result).toEqual({ rows: keys.map((_, i) => `${i + 1}:new:1`), oneKeyCalls: keys.length });
    expect((await callOnWorker(there, await statementFor(serviceId, keys, '{"v":1}'))).rows).toEqual(keys.map((_, i) => `${i + 1}:duplicate:1`));
  });

  it("a shard moved by logical replication under a steady stream of batch changes: no change lost, each version once", { timeout: MOVE_TIMEOUT_MS + 30_000 }, async () => {
    const serviceId = await createService(store.db);
    const [from, to] = workerPorts as [number, number];
    const [seed] = await keysOn(from, 1, "om");
    const shard = await shardOf(seed!);
    // 30 keys of that one shard: every batch is one shard statement on whichever worker holds it.
    const keys: string[] = [];
    for (let i = 0; keys.length < 30; i++) if ((await shardOf(`om-${i}`)) === shard) keys.push(`om-${i}`);

    // Round r changes every key to version r; the stream goes on for 3 rounds after the move.
    let movedAt = Number.POSITIVE_INFINITY;
    const answers: string[][] = [];
    const stream = (async () => {
      while (answers.length < movedAt + 3) {
        const round = answers.length + 1;
        const outcomes = await checkMany(store.db, keys.map((messageId) => ({ serviceId, messageId, payload: { round } })));
        answers.push(outcomes.map((o) => `${o.decision}:${o.version}`));
      }
    })();
    // Its own connection: a move under load outlasts the store pool's statement timeout on a slow machine.
    const mover = new pg.Client({ connectionString: store.url, statement_timeout: MOVE_TIMEOUT_MS });
    await mover.connect();
    try {
      await mover.query("select citus_move_shard_placement($1, '127.0.0.1', $2, '127.0.0.1', $3, shard_transfer_mode => 'force_logical')", [shard, from, to]);
    } finally {
      await mover.end();
    }
    movedAt = answers.length;
    await stream;

    expect(await portOfShard(shard)).toBe(to);
    expect(answers.length).toBeGreaterThan(movedAt);
    expect(movedAt).toBeGreaterThan(0);
    // A write that went to the old placement would show as a version behind.
    answers.forEach((batch, r) => expect(batch).toEqual(keys.map(() => (r === 0 ? "new:1" : `changed:${r + 1}`))));
  });
});
