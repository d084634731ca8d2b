import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { TcpProxy } from "@/test/tcp-proxy";
import { isStoreUnavailable } from "@/db/unavailable";
import { hashForService } from "@/lib/dedup/last-seen/check";
import { CheckCoalescer } from "@/lib/dedup/last-seen/coalescer";
import { StoreUnavailableError } from "@/lib/errors";
import { serviceConfigs } from "@/lib/services/service-config";
import { adminDb, bearer, createAdminToken, openStore, percentile, registerService, sleep, waitFor } from "./fixtures";
import { checkHistory } from "./history/check-history";
import { HistoryRecorder } from "./history/history";
import { lastSeenModel, windowModel } from "./history/models";
import { firstSuccessAfter, runLoad, type Sample } from "./load";
import { PrivatePostgres } from "./private-postgres";
import { WeirNode, type NodeResponse } from "./weir-node";

/**
 * A database that stops answering without closing anything (SIGSTOP of the
 * whole cluster, or a proxy that stops forwarding) and a pool with every
 * connection busy. Every request must be answered within the configured
 * timeouts (REQUEST_BOUND_MS), with 503 + Retry-After when the store did not
 * answer, and nothing may wait without bound.
 */
const POOL_MAX = 4;
const CONNECT_TIMEOUT_MS = 500;
const STATEMENT_TIMEOUT_MS = 1000;
// One store round trip: a connection (pool or coalescer queue), then the statement and the
// client's read margin of 1 s. A check makes at most three (token lookup and service settings
// when their caches are cold, then its statement) after at most one wait in the coalescer.
const ROUND_TRIP_MS = CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1000;
const REQUEST_BOUND_MS = CONNECT_TIMEOUT_MS + 3 * ROUND_TRIP_MS + 1000;
// Longer than the bound, so that anything that waits for the store to come back shows.
const FAULT_MS = REQUEST_BOUND_MS + 1000;
/** How long after a stall starts a refusal may still say `overloaded` (the shedding threshold is 200 ms). */
const STALL_ONSET_MS = 1000;
const DATABASE = "weir_stall";
const SERVICE = "stall-svc";
const GROUP = "stall-grp";
const keys = (prefix: string) => Array.from({ length: 6 }, (_, i) => `${prefix}-${i}`);

let cluster: PrivatePostgres;
let url: string;
let token: string;
let proxy: TcpProxy | undefined;
const nodes: WeirNode[] = [];

const env = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  WEIR_PG_POOL_MAX: String(POOL_MAX),
  WEIR_PG_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
  WEIR_PG_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
});

beforeAll(async () => {
  cluster = await PrivatePostgres.create();
  url = await cluster.createDatabase(DATABASE);
  const admin = adminDb(url);
  token = await createAdminToken(admin.db);
  await registerService(admin.db, SERVICE);
  await setGroupTtl(admin.db, { consumerGroup: GROUP, ttlSeconds: 3600, graceSeconds: null, reason: "t", actor: { id: "t", role: "admin" } });
  await admin.close();
});

afterAll(async () => {
  cluster?.thaw();
  proxy?.stall(false);
  await proxy?.cut().catch(() => undefined);
  await Promise.all(nodes.map((node) => node.stop()));
  await cluster?.destroy();
});

async function startNode(databaseUrl: string, overrides: Record<string, string> = {}): Promise<WeirNode> {
  const node = new WeirNode({ ...env(databaseUrl), ...overrides });
  nodes.push(node);
  await node.start();
  return node;
}

const modelFor = (key: string) => (key.startsWith("ls:") ? lastSeenModel : windowModel(3600));

const codesOf = (samples: Sample[]) =>
  samples.filter((s) => s.status === 503).reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.code ?? "none"]: (acc[s.code ?? "none"] ?? 0) + 1 }), {});

/** Load through `node` while `fault` runs; every answer checked against the bound and the models. */
async function underLoad(node: WeirNode, name: string, messageIds: string[], fault: () => Promise<void>, burst: () => Promise<NodeResponse[]>) {
  const recorder = new HistoryRecorder();
  const samples: Sample[] = [];
  let running = true;
  const load = runLoad(
    { node, token, serviceId: SERVICE, group: GROUP, messageIds, clients: 16, running: () => running, recorder, timeoutMs: 60_000 },
    samples,
  );
  let burstAnswers: NodeResponse[] = [];
  let faultEnd = 0;
  let faultStart = 0;
  try {
    await sleep(800);
    faultStart = Date.now();
    const faulted = fault().then(() => (faultEnd = Date.now()));
    await sleep(300);
    burstAnswers = await burst();
    await faulted;
    await waitFor(async () => firstSuccessAfter(samples, faultEnd) !== undefined, 15_000, 20);
    await sleep(500);
  } finally {
    running = false;
    await load;
  }
  const recoveryMs = firstSuccessAfter(samples, faultEnd)!;
  const report = checkHistory(recorder.ops, modelFor);
  const latencies = [...samples.map((s) => s.end - s.start), ...burstAnswers.map((a) => a.ms)];
  const statuses = [...samples.map((s) => s.status), ...burstAnswers.map((a) => a.status)];
  const byStatus = statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  console.log(
    `[stall] ${name}: ${statuses.length} requests (${burstAnswers.length} in a burst on one key), HTTP ${JSON.stringify(byStatus)} (503 codes ${JSON.stringify(codesOf(samples))}), ` +
      `latency p50 ${Math.round(percentile(latencies, 50))} / p99 ${Math.round(percentile(latencies, 99))} / max ${Math.round(Math.max(...latencies))} ms ` +
      `(bound ${REQUEST_BOUND_MS} ms), first answer ${recoveryMs} ms after the fault ended, ${report.operations.unknown} unknown outcomes, ${report.failures.length} anomalies`,
  );
  for (const failure of report.failures) console.error(failure);
  const slow = [
    ...samples.filter((s) => s.end - s.start >= REQUEST_BOUND_MS).map((s) => `${s.kind} ${s.status} ${s.end - s.start} ms from ${s.start - faultStart}`),
    ...burstAnswers.filter((a) => a.ms >= REQUEST_BOUND_MS).map((a) => `burst check ${a.status} ${Math.round(a.ms)} ms`),
  ];
  if (slow.length > 0) console.error(`[stall] ${name}: ${slow.length} answers slower than the bound:\n  ${slow.slice(0, 20).join("\n  ")}`);
  expect(Object.keys(byStatus).every((s) => s === "200" || s === "503")).toBe(true);
  expect(byStatus[503]).toBeGreaterThan(0);
  // In the first moment of a stall weir cannot yet tell a stalled store from a slow one: a check it
  // refuses then may say `overloaded`; after that, every refusal says the store is unavailable.
  const refusedAs = (s: Sample) => (s.code === "overloaded" && s.start - faultStart < STALL_ONSET_MS ? "store_unavailable" : s.code);
  expect(samples.filter((s) => s.status === 503).every((s) => s.retryAfter === "1" && refusedAs(s) === "store_unavailable")).toBe(true);
  expect(Math.max(...latencies)).toBeLessThan(REQUEST_BOUND_MS);
  expect(recoveryMs).toBeLessThan(5000);
  expect(report.failures).toEqual([]);
  expect(node.exit).toBeUndefined();
  expect(node.internalErrors()).toEqual([]);
}

/** Many checks of one key at once: the coalescer decides a key once per statement, so they queue. */
function hotKeyBurst(node: WeirNode, messageId: string, size: number): () => Promise<NodeResponse[]> {
  return () =>
    Promise.all(
      Array.from({ length: size }, (_, i) =>
        node.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId, payload: { i } }, bearer(token), 60_000),
      ),
    );
}

describe("a stalled database", () => {
  it("frozen with SIGSTOP (postmaster and every backend): answers within the timeouts, recovers on SIGCONT", async () => {
    const node = await startNode(url);
    await underLoad(
      node,
      `cluster frozen ${FAULT_MS / 1000} s`,
      keys("frozen"),
      async () => {
        const pids = cluster.freeze();
        await sleep(FAULT_MS);
        cluster.thaw(pids);
      },
      hotKeyBurst(node, "hot-frozen", 120),
    );
  });

  it("behind a proxy that stops forwarding: answers within the timeouts, recovers when it flows again", async () => {
    const stalling = (proxy = new TcpProxy("127.0.0.1", cluster.port));
    await stalling.start();
    const node = await startNode(stalling.url(DATABASE));
    await underLoad(
      node,
      `proxy stalled ${FAULT_MS / 1000} s`,
      keys("proxied"),
      async () => {
        stalling.stall(true);
        await sleep(FAULT_MS);
        stalling.stall(false);
      },
      hotKeyBurst(node, "hot-proxied", 120),
    );
  });
});

describe("an exhausted pool", () => {
  it("requests that cannot get a connection fail after the connect timeout; those holding one, at the statement timeout", async () => {
    // A longer statement timeout here: the pool stays full while the other requests are refused.
    const holdMs = 3000;
    const node = await startNode(url, { WEIR_PG_STATEMENT_TIMEOUT_MS: String(holdMs) });
    const headers = bearer(token);
    const observer = new pg.Client({ connectionString: url });
    await observer.connect();
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    await locker.query("begin");
    // TTL changes lock the group's row: each of these holds a pool connection until its statement times out.
    await locker.query("select 1 from consumer_groups where id = $1 for update", [GROUP]);
    try {
      const holders = Array.from({ length: POOL_MAX }, (_, i) =>
        node.request("PUT", `/api/v1/consumer-groups/${GROUP}`, { ttlSeconds: 60 + i, reason: "held" }, headers),
      );
      await waitFor(async () => {
        const { rows } = await observer.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'weir' and wait_event_type = 'Lock'",
          [DATABASE],
        );
        return rows[0]!.n === POOL_MAX;
      }, 5000, 10);
      const others = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => node.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId: `x${i}`, payload: {} }, headers)),
        ...Array.from({ length: 10 }, (_, i) => node.request("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: `y${i}` }, headers)),
        node.request("GET", "/api/health"),
      ]);
      const held = await Promise.all(holders);
      console.log(
        `[stall] pool of ${POOL_MAX} held: ${others.length} waiting requests answered ${[...new Set(others.map((o) => o.status))].join(",")} in max ${Math.round(Math.max(...others.map((o) => o.ms)))} ms; ` +
          `holders answered ${[...new Set(held.map((h) => h.status))].join(",")} in max ${Math.round(Math.max(...held.map((h) => h.ms)))} ms`,
      );
      for (const res of [...others, ...held]) {
        expect(res.status).toBe(503);
        expect(res.headers["retry-after"]).toBe("1");
      }
      expect(Math.max(...others.map((o) => o.ms))).toBeLessThan(CONNECT_TIMEOUT_MS + 2000);
      for (const res of held) {
        expect(res.ms).toBeGreaterThan(holdMs - 100);
        expect(res.ms).toBeLessThan(CONNECT_TIMEOUT_MS + holdMs + 2000);
      }
    } finally {
      await locker.query("rollback");
      await locker.end();
      await observer.end();
    }
    const groups = await node.request("GET", "/api/v1/consumer-groups", undefined, headers);
    expect(groups.body.groups.find((g: { id: string }) => g.id === GROUP).ttlSeconds).toBe(3600);
    expect((await node.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId: "x0", payload: {} }, headers)).body.decision).toBe("new");
    expect(node.exit).toBeUndefined();
  });

  it("the check coalescer holds at most maxQueued checks, refuses the rest at once, and lets none wait past maxWaitMs", async () => {
    const stalling = new TcpProxy("127.0.0.1", cluster.port);
    await stalling.start();
    const store = openStore(stalling.url(DATABASE), { poolMax: 2, connectTimeoutMs: CONNECT_TIMEOUT_MS, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    try {
      const config = await serviceConfigs.require(store.db, SERVICE);
      const coalescer = new CheckCoalescer(async () => store.db, { maxInFlight: 1, maxQueued: 50, maxWaitMs: CONNECT_TIMEOUT_MS });
      const item = (i: number) => hashForService(config, `q${i % 10}`, JSON.stringify({ i }));
      expect((await coalescer.submit(item(0))).decision).toBe("new");
      stalling.stall(true);
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) => {
          const submitted = coalescer.submit(item(i));
          expect(coalescer.queued).toBeLessThanOrEqual(50);
          return submitted.then(
            () => ({ ok: true, ms: Date.now() - started, unavailable: false }),
            (err: Error) => ({ ok: false, ms: Date.now() - started, unavailable: err instanceof StoreUnavailableError || isStoreUnavailable(err) }),
          );
        }),
      );
      const refusedAtOnce = outcomes.filter((o) => !o.ok && o.ms < 200).length;
      console.log(
        `[stall] coalescer (maxQueued 50, maxWaitMs ${CONNECT_TIMEOUT_MS}) on a stalled store: 200 checks, ${refusedAtOnce} refused at once, ` +
          `all answered within ${Math.max(...outcomes.map((o) => o.ms))} ms, ${outcomes.filter((o) => o.ok).length} decided`,
      );
      expect(outcomes.every((o) => !o.ok && o.unavailable)).toBe(true);
      expect(refusedAtOnce).toBeGreaterThanOrEqual(149);
      expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(ROUND_TRIP_MS + 1500);
      expect(coalescer.queued).toBe(0);
      stalling.stall(false);
      await waitFor(async () => (await coalescer.submit(item(0)).then(() => true, () => false)), 10_000, 50);
    } finally {
      stalling.stall(false);
      await store.close().catch(() => undefined);
      await stalling.cut();
    }
  });
});
