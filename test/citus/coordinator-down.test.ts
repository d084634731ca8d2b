import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { checkMany } from "@/lib/dedup/last-seen/check";
import { bearer, sleep } from "../faults/fixtures";
import { prepareHistoryDatabase } from "../faults/history/setup";
import { WeirNode, type NodeResponse } from "../faults/weir-node";
import { CitusCluster } from "./citus-cluster";
import { remoteCommandsPool, twoPhaseCommits } from "./remote-commands";

/**
 * No coordinator on the hot path (issue 26): a weir node with WEIR_CITUS_ROUTE_URLS sends its
 * checks, batches and claims to the workers, so a steady load goes on answering, correctly,
 * while the coordinator is stopped; a console write (a reset, through the console's verbs) is
 * refused with 503 meanwhile and changes nothing, and works again once the coordinator is back.
 * The cluster is this file's own: stopping its coordinator touches no other test.
 */
const DATABASE = "weir_coordinator_down";
const SERVICE = "coordless-svc";
const GROUP = "coordless-group";
const SCOPE = "coordless-scope";
const CLIENTS = 6;
const UP_MS = 2000;
// Long enough for the writes refused meanwhile and a node started meanwhile.
const DOWN_MS = 8000;

let cluster: CitusCluster;
let routeEnv: Record<string, string>;
let node: WeirNode;
/** The same node without the setting: everything on the coordinator, so it stops with it. */
let plain: WeirNode;
let headers: Record<string, string>;

beforeAll(async () => {
  cluster = await CitusCluster.create(2);
  const url = await cluster.createDatabase(DATABASE);
  headers = bearer(await prepareHistoryDatabase(url, { serviceId: SERVICE, groups: [{ id: GROUP }], initialTtl: 3600 }));
  const workers = cluster.workers.map((worker) => worker.url(DATABASE)).join(",");
  routeEnv = { DATABASE_URL: url, WEIR_CITUS_ROUTE_URLS: workers, WEIR_PG_POOL_MAX: "8", WEIR_DESTRUCTIVE_LIMIT: "1000000" };
  node = new WeirNode(routeEnv, "routed");
  plain = new WeirNode({ DATABASE_URL: url, WEIR_PG_POOL_MAX: "2" }, "plain");
  await Promise.all([node.start(), plain.start()]);
});

afterAll(async () => {
  await Promise.all([node?.stop(), plain?.stop()]);
  await cluster?.destroy();
});

interface Tally {
  answered: number;
  /** Requests that failed and failed again on their one retry. */
  failedTwice: string[];
  /** Answers that were not what the key's history makes them. */
  wrong: string[];
}

const tally = (): Tally => ({ answered: 0, failedTwice: [], wrong: [] });

/** One request, retried once when it gets no answer or a 503 (what a client does with Retry-After). */
async function send(into: Tally, what: string, path: string, body: unknown, answered = 200): Promise<NodeResponse | undefined> {
  for (let attempt = 1; ; attempt++) {
    const res = await node.request("POST", path, body, headers, 10_000);
    if (res.status === answered) {
      into.answered++;
      return res;
    }
    if (attempt === 2 || (res.status !== 503 && res.status !== 0)) {
      into.failedTwice.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return undefined;
    }
    await sleep(200);
  }
}

function expectDecision(into: Tally, what: string, res: NodeResponse | undefined, decisions: string[]): void {
  if (!res) return;
  const got = Array.isArray(res.body.results) ? res.body.results.map((r: { decision: string }) => r.decision) : [res.body.decision ?? res.body.outcome];
  if (JSON.stringify(got) !== JSON.stringify(decisions)) into.wrong.push(`${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(decisions)}`);
}

/**
 * One client's steady load until `running()` is false: a new key checked three times (new,
 * duplicate, then changed), a batch of two new keys, a claim claimed twice (new, duplicate), an
 * idempotency key begun, completed and begun again (started, completed). Each round uses keys of
 * its own, so every answer is known in advance.
 */
async function clientLoop(client: number, phase: () => Tally, running: () => boolean): Promise<void> {
  for (let round = 0; running(); round++) {
    const into = phase();
    const key = `c${client}-r${round}`;
    const check = (payload: unknown) => ({ serviceId: SERVICE, messageId: key, payload });
    expectDecision(into, `${key} first`, await send(into, `${key} first`, "/api/v1/check", check({ v: 1 })), ["new"]);
    expectDecision(into, `${key} again`, await send(into, `${key} again`, "/api/v1/check", check({ v: 1 })), ["duplicate"]);
    expectDecision(into, `${key} changed`, await send(into, `${key} changed`, "/api/v1/check", check({ v: 2 })), ["changed"]);
    const items = [0, 1].map((i) => ({ serviceId: SERVICE, messageId: `${key}-b${i}`, payload: { i } }));
    expectDecision(into, `${key} batch`, await send(into, `${key} batch`, "/api/v1/check/batch", { items }), ["new", "new"]);
    const claim = { consumerGroup: GROUP, messageId: key };
    expectDecision(into, `${key} claim`, await send(into, `${key} claim`, "/api/v1/claim", claim), ["new"]);
    expectDecision(into, `${key} claim again`, await send(into, `${key} claim again`, "/api/v1/claim", claim), ["duplicate"]);
    const begun = await send(into, `${key} begin`, `/api/v1/idempotency/${SCOPE}/begin`, { key, request: { round } }, 201);
    if (!begun) continue;
    const response = { status: 200, body: key };
    await send(into, `${key} complete`, `/api/v1/idempotency/${SCOPE}/complete`, { key, request: { round }, attempt: begun.body.attempt, response });
    const replay = await send(into, `${key} begin again`, `/api/v1/idempotency/${SCOPE}/begin`, { key, request: { round } });
    expectDecision(into, `${key} begin again`, replay, ["completed"]);
  }
}

/**
 * A begin that waits for a key another caller holds, woken by the holder's complete: the NOTIFY
 * runs on the worker the complete's connection reached, the node listens on every worker.
 * Answers the waiting begin and how long it waited.
 */
async function waitedBegin(key: string): Promise<{ res: NodeResponse; ms: number }> {
  const begin = (waitSeconds: number) => node.request("POST", `/api/v1/idempotency/${SCOPE}/begin`, { key, request: {}, waitSeconds }, headers);
  const holder = await begin(0);
  expect(holder.status).toBe(201);
  const started = Date.now();
  const waiting = begin(10);
  await sleep(500);
  const done = await node.request("POST", `/api/v1/idempotency/${SCOPE}/complete`, { key, request: {}, attempt: holder.body.attempt, response: { status: 200, body: "done" } }, headers);
  expect(done.status).toBe(200);
  const res = await waiting;
  return { res, ms: Date.now() - started };
}

/** The service's checks counted in stats_minute, read on a worker (it has the metadata; the coordinator may be down). */
async function countedChecks(): Promise<number> {
  const [row] = await cluster.workers[0]!.query<{ n: string }>("select coalesce(sum(checks), 0) as n from stats_minute where subject = $1", [SERVICE], DATABASE);
  return Number(row!.n);
}

const resetOf = (messageId: string) => node.request("POST", "/faults/reset", { kind: "last_seen", subject: SERVICE, messageId }, {}, 15_000);
const checkOf = (messageId: string, payload: unknown) => node.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId, payload }, headers);

/** weir's own sessions (not Citus's between nodes) on the worker at `port`. */
async function weirSessionsOn(port: number): Promise<number> {
  const worker = cluster.workers.find((w) => w.port === port)!;
  const [row] = await worker.query<{ n: string }>("select count(*) as n from pg_stat_activity where datname = $1 and application_name = 'weir'", [DATABASE], DATABASE);
  return Number(row!.n);
}

/** A message id whose last_seen shard the worker on `port` holds. */
async function keyHeldBy(port: number): Promise<string> {
  const [row] = await cluster.coordinator.query<{ k: string }>(
    `select 'probe-' || g as k from generate_series(1, 1000) g
    where (select n.nodeport from pg_dist_placement p join pg_dist_node n using (groupid)
      where p.shardid = get_shard_id_for_distribution_column('last_seen', 'probe-' || g)) = $1 limit 1`,
    [port],
    DATABASE,
  );
  return row!.k;
}

describe("a weir node connected to the workers (WEIR_CITUS_ROUTE_URLS)", () => {
  it("checks from a worker a key held by the other: one call delegated there, no two-phase commit", async () => {
    const [from, holder] = cluster.workers;
    const messageId = await keyHeldBy(holder!.port);
    const logged = remoteCommandsPool(from!.url(DATABASE));
    try {
      const [outcome] = await checkMany(drizzle({ client: logged.pool, schema }), [{ serviceId: SERVICE, messageId, payload: { v: 1 } }]);
      expect(outcome).toMatchObject({ decision: "new" });
      // The worker forwards the call itself (Citus delegates it, as the coordinator would), not the statements inside it.
      expect(logged.commands.filter((command) => /weir_last_seen_decide_v5\(/.test(command))).toHaveLength(1);
      expect(logged.commands.filter((command) => /last_seen_\d+/.test(command))).toEqual([]);
      expect(twoPhaseCommits(logged.commands)).toEqual([]);
    } finally {
      await logged.pool.end();
    }
  });

  it("answers checks, batches, claims and idempotency calls while the coordinator is down, and refuses console writes cleanly", async () => {
    const kept = "kept-through-outage";
    expect((await checkOf(kept, { a: 1 })).body.decision).toBe("new");

    const up = tally();
    const down = tally();
    const back = tally();
    let phase = up;
    let running = true;
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, client) => clientLoop(client, () => phase, () => running)));

    await sleep(UP_MS);
    await cluster.coordinator.stop("fast");
    phase = down;
    const downSince = Date.now();
    const countedAtStop = await countedChecks();
    // A console write meanwhile: refused, and the key's state stays.
    await sleep(1000);
    const refused = await resetOf(kept);
    const stillThere = await checkOf(kept, { a: 1 });
    const health = await node.request("GET", "/api/health");
    const spread = await Promise.all(cluster.workers.map((worker) => weirSessionsOn(worker.port)));
    const ttlChange = await node.request("PUT", `/api/v1/consumer-groups/${GROUP}`, { ttlSeconds: 60, graceSeconds: 60, reason: "outage" }, headers);
    // A node started meanwhile (migrations left to the owner, as the production role runs) serves checks too.
    const late = new WeirNode({ ...routeEnv, WEIR_SKIP_MIGRATIONS: "1" }, "started-in-outage");
    let lateCheck: NodeResponse;
    try {
      await late.start();
      lateCheck = await late.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId: kept, payload: { a: 1 } }, headers);
    } finally {
      await late.stop();
    }
    const plainCheck = await plain.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId: "plain", payload: {} }, headers);
    const waited = await waitedBegin("waited-through-outage");
    // A revert (per decision, audited on the key's shard): no coordinator needed either.
    const reverted = await checkOf("reverted-in-outage", { r: 1 });
    const revert = await node.request("POST", "/api/v1/check/revert", { serviceId: SERVICE, messageId: "reverted-in-outage", version: reverted.body.version }, headers);
    const afterRevert = await checkOf("reverted-in-outage", { r: 1 });
    await sleep(Math.max(0, DOWN_MS - (Date.now() - downSince)));
    const downFor = Date.now() - downSince;
    const countedWhileDown = (await countedChecks()) - countedAtStop;
    await cluster.coordinator.start();
    phase = back;
    // Console writes work again once the node's coordinator pool reconnects (its dead connections go first).
    let reset: NodeResponse | undefined;
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(500)) {
      reset = await resetOf(kept);
      if (reset.status === 200) break;
    }
    running = false;
    await load;

    console.log(
      `[coordinator-down] answered: ${up.answered} in ${UP_MS} ms up, ${down.answered} in ${downFor} ms down, ${back.answered} after; waiting begin woken after ${waited.ms} ms; ` +
        `rate down/up ${((down.answered / downFor) * UP_MS) / Math.max(1, up.answered)}`,
    );
    for (const [name, phaseTally] of Object.entries({ up, down, back })) {
      expect(phaseTally.failedTwice, `${name}: requests without an answer after a retry`).toEqual([]);
      expect(phaseTally.wrong, `${name}: wrong answers`).toEqual([]);
    }
    // A steady load while the coordinator was down: several seconds' worth of rounds, not a trickle.
    expect(down.answered).toBeGreaterThan(CLIENTS * 6 * 3);

    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.body.error.code).toBe("store_unavailable");
    expect(refused.body.error.message).toMatch(/coordinator/);
    expect(stillThere.body.decision).toBe("duplicate");
    expect(ttlChange.status).toBe(503);
    expect(ttlChange.body.error.message).toMatch(/coordinator/);
    expect(lateCheck.status, JSON.stringify(lateCheck.body)).toBe(200);
    expect(lateCheck.body.decision).toBe("duplicate");
    // The routed node stays in a load balancer's rotation and says what is down; a node without the setting stops.
    expect(health.status).toBe(200);
    // The node's connections went to both workers in turn.
    for (const sessions of spread) expect(sessions).toBeGreaterThan(0);
    expect(health.body.store).toMatchObject({ reachable: true, coordinator: { reachable: false } });
    expect(plainCheck.status).toBe(503);
    expect(plainCheck.body.error.message).not.toMatch(/coordinator/);
    expect(revert.status, JSON.stringify(revert.body)).toBe(200);
    expect(afterRevert.body.decision).toBe("new");
    // Woken by the complete, not by the end of its 10 s wait.
    expect(waited.res.status).toBe(200);
    expect(waited.res.body.outcome).toBe("completed");
    expect(waited.ms).toBeLessThan(5000);

    expect(reset?.status, JSON.stringify(reset?.body)).toBe(200);
    expect(reset!.body.deleted).toBe(true);
    expect((await checkOf(kept, { a: 1 })).body.decision).toBe("new");
    // The flushes (stats every 2 s, journal every second) went to the workers all along.
    expect(countedWhileDown).toBeGreaterThan(0);
    // None failed for want of the coordinator (on this loaded box one may wait past the pool's
    // connect timeout behind the load's own requests, and is retried at the next tick).
    const coordinatorPort = String(cluster.coordinator.port);
    const failedFlushes = node.stderr.join("").split("\n").filter((line) => /(stats|journal) flush failed/.test(line));
    console.log(`[coordinator-down] flushes failed and retried: ${failedFlushes.length ? failedFlushes.join("; ") : "none"}`);
    expect(failedFlushes.filter((line) => line.includes("ECONNREFUSED") || line.includes(coordinatorPort))).toEqual([]);
    expect(node.internalErrors()).toEqual([]);
  }, 120_000);
});
