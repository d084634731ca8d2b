import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { hotDb, openStore, type Store } from "@/db/client";
import { hashText } from "@/db/citus-hash";
import { PLACEMENT_REFRESH_MS } from "@/db/citus-placement";
import { storeConfigFromEnv } from "@/db/config";
import { routerOf } from "@/db/shard-router";
import { check, checkMany } from "@/lib/dedup/last-seen/check";
import { begin } from "@/lib/dedup/idempotency/begin";
import { complete } from "@/lib/dedup/idempotency/complete";
import { readKeyState } from "@/lib/dedup/idempotency/key-state";
import { claimMany } from "@/lib/dedup/window/claim";
import { releaseClaim } from "@/lib/dedup/window/release";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";

/**
 * WEIR_CITUS_ROUTE_URLS with the placements in the node: each key's work goes straight to the
 * worker holding its shard (db/shard-router.ts), computed locally (db/citus-hash.ts), and stays
 * correct when a shard moves under it.
 */
let base: TestDatabase;
let routed: Store;
const workerPorts = inject("citusPorts").workers;
const address = (port: number) => `127.0.0.1:${port}`;

beforeAll(async () => {
  base = await createTestDatabase();
  const routeUrls = workerPorts.map((port) => `postgres://postgres@127.0.0.1:${port}/${base.name}`);
  routed = await openStore({ ...storeConfigFromEnv(), databaseUrl: base.url, routeUrls, poolMax: 4 }, { migrate: false });
  await routerOf(hotDb(routed))!.placements.refresh();
});
afterAll(() => routed?.close());

/** The port of the worker holding each key's shard in last_seen, as the coordinator says. */
async function portsOf(keys: readonly string[]): Promise<number[]> {
  const { rows } = await base.pool!.query<{ port: number }>(
    `select (select n.nodeport from pg_dist_placement p join pg_dist_node n using (groupid)
       where p.shardid = get_shard_id_for_distribution_column('last_seen', k) limit 1) as port
     from unnest($1::text[]) with ordinality as u(k, i) order by i`,
    [keys],
  );
  return rows.map((row) => row.port);
}

async function keysOn(port: number, count: number, prefix: string): Promise<string[]> {
  const candidates = Array.from({ length: count * 6 }, (_, i) => `${prefix}-${i}`);
  const ports = await portsOf(candidates);
  const keys = candidates.filter((_, i) => ports[i] === port).slice(0, count);
  expect(keys).toHaveLength(count);
  return keys;
}

/**
 * Transactions committed in the test database on each worker while `work` runs. A backend reports
 * its counts when it exits: the routed store's pools are closed and opened again around it.
 */
async function transactionsDuring(work: (store: Store) => Promise<void>): Promise<number[]> {
  const read = () =>
    Promise.all(
      workerPorts.map(async (port) => {
        const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
        await client.connect();
        try {
          const { rows } = await client.query<{ n: string }>("select xact_commit + xact_rollback as n from pg_stat_database where datname = $1", [base.name]);
          return Number(rows[0]!.n);
        } finally {
          await client.end();
        }
      }),
    );
  const config = { ...storeConfigFromEnv(), databaseUrl: base.url, routeUrls: workerPorts.map((port) => `postgres://postgres@127.0.0.1:${port}/${base.name}`), poolMax: 4 };
  const store = await openStore(config, { migrate: false });
  await routerOf(hotDb(store))!.placements.refresh();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = await read();
  await work(store);
  await store.close();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = await read();
  return after.map((n, i) => n - before[i]!);
}

describe("hashText, PostgreSQL's hashtext as Citus places a text value", () => {
  it("equals worker_hash and hashtext for random strings, multi-byte UTF-8 and every length around the 12-byte blocks", async () => {
    const alphabet = ["a", "Z", "0", "-", "é", "ß", "✓", "日", "本", "😀", " "];
    const values = [""];
    for (let length = 0; length <= 40; length++) {
      values.push("x".repeat(length), Array.from({ length }, (_, i) => alphabet[i % alphabet.length]).join(""));
    }
    for (let i = 0; i < 3000; i++) {
      const bytes = randomBytes(1 + (i % 48));
      values.push(i % 3 === 0 ? bytes.toString("hex").slice(0, i % 41) : Array.from(bytes, (b) => alphabet[b % alphabet.length]).join(""));
    }
    const { rows } = await base.pool!.query<{ w: number; h: number }>(
      "select worker_hash(v) as w, hashtext(v) as h from unnest($1::text[]) with ordinality as u(v, i) order by i",
      [values],
    );
    const mine = values.map(hashText);
    expect(rows.map((row) => row.w)).toEqual(mine);
    expect(rows.map((row) => row.h)).toEqual(mine);
  });
});

describe("a routed store sends each key to its shard's worker", () => {
  it("knows every key's worker as the coordinator does", async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `where-${i}`);
    const ports = await portsOf(keys);
    const router = routerOf(hotDb(routed))!;
    expect(keys.map((key) => router.nodeOf("last_seen", key))).toEqual(ports.map(address));
    expect(keys.map((key) => router.nodeOf("idempotency_keys", key))).toEqual(ports.map(address));
  });

  it("single checks and batches whose keys all live on worker 2 send nothing to worker 1", async () => {
    const serviceId = await createService(base.db);
    // 40 single checks, a batch, a batch of claims, 5 idempotency begins, completes and reads,
    // 5 claim releases: all on worker 2.
    const routedWork = async (attempt: number) => {
      const keys = await keysOn(workerPorts[1]!, 60, `w2-${attempt}`);
      const group = `g-route-${attempt}`;
      return transactionsDuring(async (store) => {
        const db = hotDb(store);
        for (const messageId of keys.slice(0, 40)) expect((await check(db, { serviceId, messageId, payload: { a: 1 } })).decision).toBe("new");
        const batch = await checkMany(db, keys.map((messageId) => ({ serviceId, messageId, payload: { a: 1 } })));
        expect(batch.map((o) => o.decision)).toEqual(keys.map((_, i) => (i < 40 ? "duplicate" : "new")));
        const claims = await claimMany(db, keys.slice(0, 10).map((messageId) => ({ consumerGroup: group, messageId })));
        expect(claims.map((o) => o.decision)).toEqual(keys.slice(0, 10).map(() => "new"));
        for (const key of keys.slice(0, 5)) {
          const ref = { scope: `s-route-${attempt}`, key, requestHash: "a".repeat(64) };
          expect(await begin(db, ref)).toMatchObject({ outcome: "started", attempt: 1 });
          await complete(db, { ...ref, attempt: 1, response: { status: 200, body: key, headers: {} } });
          expect((await readKeyState(db, ref.scope, key))?.status).toBe("completed");
          expect((await releaseClaim(db, { consumerGroup: group, messageId: key })).released).toBe(true);
        }
      });
    };
    // Worker 1 sees only the store's own reads (the placements, whether it is Citus) and Citus's
    // upkeep. The upkeep is the coordinator's maintenance daemon (deadlock detection every 2 s, 2PC
    // recovery every minute) on both workers alike, and its connections report their counts in
    // bursts of about 60 a minute: a window that catches one is measured again, with new keys.
    // Round robin would send worker 1 about half of the keys' calls (45 against 43) every time.
    const windows: number[][] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const sent = await routedWork(attempt);
      windows.push(sent);
      expect(sent[1]).toBeGreaterThanOrEqual(62);
      if (sent[0]! < sent[1]! / 4) break;
    }
    console.log(`[shard-route] transactions per worker, by window: ${windows.map((sent) => sent.join(", ")).join(" | ")}`);
    expect(windows.at(-1)![0]).toBeLessThan(windows.at(-1)![1]! / 4);
  });

  it("a worker holding shards that no route URL names: warned once, its keys still answered through the others", async () => {
    const serviceId = await createService(base.db);
    const [listedPort, unlistedPort] = workerPorts as [number, number];
    const warned: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((message: string) => void warned.push(message));
    const partial = await openStore(
      { ...storeConfigFromEnv(), databaseUrl: base.url, routeUrls: [`postgres://postgres@127.0.0.1:${listedPort}/${base.name}`], poolMax: 2 },
      { migrate: false },
    );
    try {
      const placements = routerOf(hotDb(partial))!.placements;
      await placements.refresh();
      await placements.refresh();
      expect(warned.filter((m) => m.includes("WEIR_CITUS_ROUTE_URLS"))).toEqual([expect.stringContaining(address(unlistedPort))]);
      const keys = await keysOn(unlistedPort, 3, "unlisted");
      const db = hotDb(partial);
      expect((await checkMany(db, keys.map((messageId) => ({ serviceId, messageId, payload: 1 })))).map((o) => o.decision)).toEqual(["new", "new", "new"]);
      expect((await check(db, { serviceId, messageId: keys[0]!, payload: 1 })).decision).toBe("duplicate");
    } finally {
      warn.mockRestore();
      await partial.close();
    }
  });

  it("a moved shard: answers stay right through the stale placement, and a refresh sends the key to its new worker", async () => {
    const serviceId = await createService(base.db);
    const [from, to] = workerPorts as [number, number];
    const [key] = await keysOn(from, 1, "mv");
    const db = hotDb(routed);
    const router = routerOf(db)!;
    expect(router.nodeOf("last_seen", key!)).toBe(address(from));
    expect((await check(db, { serviceId, messageId: key!, payload: { v: 1 } })).decision).toBe("new");

    const { rows } = await base.pool!.query<{ shard: string }>("select get_shard_id_for_distribution_column('last_seen', $1::text) as shard", [key]);
    await base.pool!.query("select citus_move_shard_placement($1, '127.0.0.1', $2, '127.0.0.1', $3, shard_transfer_mode => 'block_writes')", [
      rows[0]!.shard,
      from,
      to,
    ]);
    // Still the old worker in the cache: it forwards, the answers are the key's.
    expect(router.nodeOf("last_seen", key!)).toBe(address(from));
    expect((await check(db, { serviceId, messageId: key!, payload: { v: 1 } })).decision).toBe("duplicate");
    expect((await checkMany(db, [key!, `${key}-other`].map((messageId) => ({ serviceId, messageId, payload: { v: 2 } })))).map((o) => o.decision)).toEqual([
      "changed",
      "new",
    ]);

    // The background read (every PLACEMENT_REFRESH_MS) picks the move up, with no call failing first.
    const until = Date.now() + PLACEMENT_REFRESH_MS * 3;
    while (router.nodeOf("last_seen", key!) !== address(to) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(router.nodeOf("last_seen", key!)).toBe(address(to));
    expect(router.nodeOf("window_records", key!)).toBe(address(to));
    expect((await check(db, { serviceId, messageId: key!, payload: { v: 2 } })).decision).toBe("duplicate");
  });
});
