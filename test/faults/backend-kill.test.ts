import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { adminDb, bearer, createAdminToken, registerService, sleep, waitFor } from "./fixtures";
import { PrivatePostgres } from "./private-postgres";
import { WeirNode, type NodeResponse } from "./weir-node";

/**
 * pg_terminate_backend on the pool connection that is serving a request, at a
 * moment the test chooses: while the statement waits for a row lock, while a
 * transaction waits between statements, and during COMMIT (the commit record is
 * written, then the backend waits for a synchronous standby that does not
 * exist, and is killed there: committed locally, but the client never hears).
 */
const DATABASE = "weir_kill";
const SERVICE = "kill-svc";
const GROUP = "kill-grp";

let cluster: PrivatePostgres;
let node: WeirNode;
let token: string;
let observer: pg.Client;
let killed = 0;

beforeAll(async () => {
  cluster = await PrivatePostgres.create();
  const url = await cluster.createDatabase(DATABASE);
  const admin = adminDb(url);
  token = await createAdminToken(admin.db);
  await registerService(admin.db, SERVICE, { historyDepth: 2 });
  await setGroupTtl(admin.db, { consumerGroup: GROUP, ttlSeconds: 3600, graceSeconds: null, reason: "t", actor: { id: "t", role: "admin" } });
  await admin.close();
  observer = new pg.Client({ connectionString: url, application_name: "faults-observer" });
  await observer.connect();
  node = new WeirNode({
    DATABASE_URL: url,
    WEIR_PG_POOL_MAX: "4",
    WEIR_PG_CONNECT_TIMEOUT_MS: "1000",
    WEIR_PG_STATEMENT_TIMEOUT_MS: "15000",
    WEIR_DESTRUCTIVE_LIMIT: "100000",
  });
  await node.start();
});

afterAll(async () => {
  await observer?.end().catch(() => undefined);
  await node?.stop();
  await cluster?.destroy();
});

const api = (method: string, path: string, body?: unknown) => node.request(method, path, body, bearer(token));
const checkKey = (messageId: string, payload: unknown) => api("POST", "/api/v1/check", { serviceId: SERVICE, messageId, payload });

/** The pid of weir's backend once it is seen waiting on `waitEvent` (a lock type or SyncRep). */
async function weirBackendWaiting(where: string): Promise<number> {
  let pid = 0;
  await waitFor(async () => {
    const { rows } = await observer.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and application_name = 'weir' and ${where} limit 1`,
      [DATABASE],
    );
    pid = rows[0]?.pid ?? 0;
    return pid !== 0;
  }, 10_000, 10);
  return pid;
}

async function terminate(pid: number): Promise<void> {
  const { rows } = await observer.query<{ ok: boolean }>("select pg_terminate_backend($1) as ok", [pid]);
  expect(rows[0]!.ok).toBe(true);
  killed++;
}

function expectStoreUnavailable(res: NodeResponse): void {
  expect(res.status).toBe(503);
  expect(res.headers["retry-after"]).toBe("1");
  expect(res.body.error.code).toBe("store_unavailable");
  expect(res.body).not.toHaveProperty("decision");
}

/** Holds a lock in a transaction of its own until released. */
async function holding(sql: string, params: unknown[] = []): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: cluster.url(DATABASE), application_name: "faults-locker" });
  await client.connect();
  await client.query("begin");
  await client.query(sql, params);
  return {
    release: async () => {
      await client.query("rollback");
      await client.end();
    },
  };
}

/** Every commit that wrote something waits for a standby that never comes (wait event SyncRep). */
async function commitsHang(on: boolean): Promise<void> {
  await observer.query(on ? "alter system set synchronous_standby_names = 'nobody'" : "alter system reset synchronous_standby_names");
  await observer.query("select pg_reload_conf()");
  await sleep(100);
}

describe("a backend killed while it serves a request", () => {
  it("while the check waits for a row lock: 503, no crash, and the retry continues the version chain", async () => {
    expect((await checkKey("locked", { v: 1 })).body).toMatchObject({ decision: "new", version: 1 });
    const lock = await holding("select 1 from last_seen where service_id = $1 and message_id = 'locked' for update", [SERVICE]);
    const pending = checkKey("locked", { v: 2 });
    await terminate(await weirBackendWaiting("wait_event_type = 'Lock'"));
    expectStoreUnavailable(await pending);
    await lock.release();
    const retry = await checkKey("locked", { v: 2 });
    // The killed call never committed: the retry makes the change, version 2 (never 3, never "new").
    expect(retry.body).toMatchObject({ decision: "changed", version: 2 });
    expect((await checkKey("locked", { v: 2 })).body).toMatchObject({ decision: "duplicate", version: 2 });
    expect(node.exit).toBeUndefined();
  });

  it("during COMMIT of a check: 503, and the retry is a duplicate of what the killed call wrote", async () => {
    expect((await checkKey("commit", { v: 1 })).body).toMatchObject({ decision: "new", version: 1 });
    await commitsHang(true);
    try {
      const pending = checkKey("commit", { v: 2 });
      await terminate(await weirBackendWaiting("wait_event = 'SyncRep'"));
      expectStoreUnavailable(await pending);
    } finally {
      await commitsHang(false);
    }
    // Committed locally before the kill: the outcome the client did not hear was "changed, version 2".
    const retry = await checkKey("commit", { v: 2 });
    expect(retry.body).toMatchObject({ decision: "duplicate", version: 2 });
    const detail = await api("GET", `/api/v1/services/${SERVICE}/keys/commit`);
    expect(detail.body.state.version).toBe(2);
    expect(detail.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(node.exit).toBeUndefined();
  });

  it("during COMMIT of a coalesced statement: every check in it gets 503, every retry agrees with one write", async () => {
    await commitsHang(true);
    let answers: NodeResponse[];
    try {
      const pending = Promise.all(Array.from({ length: 6 }, (_, i) => checkKey(`batch-${i}`, { i })));
      await terminate(await weirBackendWaiting("wait_event = 'SyncRep'"));
      // Checks coalesced into the killed statement fail with it; any in a later statement hang on
      // their own commit, and are released by the next kill.
      for (;;) {
        const next = await Promise.race([pending, sleep(300).then(() => undefined)]);
        if (next) {
          answers = next;
          break;
        }
        const { rows } = await observer.query<{ pid: number }>(
          "select pid from pg_stat_activity where datname = $1 and application_name = 'weir' and wait_event = 'SyncRep'",
          [DATABASE],
        );
        for (const { pid } of rows) await terminate(pid);
      }
    } finally {
      await commitsHang(false);
    }
    for (const answer of answers) expectStoreUnavailable(answer);
    for (let i = 0; i < 6; i++) {
      // Each killed check committed (it was waiting after its commit record): retries are duplicates of version 1.
      expect((await checkKey(`batch-${i}`, { i })).body).toMatchObject({ decision: "duplicate", version: 1 });
    }
  });

  it("during COMMIT of a claim: 503, and the retry is a duplicate", async () => {
    await commitsHang(true);
    try {
      const pending = api("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: "claim-commit" });
      await terminate(await weirBackendWaiting("wait_event = 'SyncRep'"));
      expectStoreUnavailable(await pending);
    } finally {
      await commitsHang(false);
    }
    expect((await api("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: "claim-commit" })).body.decision).toBe("duplicate");
  });

  it("while a claim waits for the row lock: 503, and the retry claims it once", async () => {
    const lock = await holding(
      "insert into window_records (consumer_group, message_id, claimed_at) values ($1, 'claim-lock', now())",
      [GROUP],
    );
    const pending = api("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: "claim-lock" });
    await terminate(await weirBackendWaiting("wait_event_type = 'Lock'"));
    expectStoreUnavailable(await pending);
    await lock.release();
    expect((await api("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: "claim-lock" })).body.decision).toBe("new");
    expect((await api("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: "claim-lock" })).body.decision).toBe("duplicate");
  });

  it("inside a transaction between statements (TTL change waiting on its audit row): 503, no crash, nothing half-applied", async () => {
    const lock = await holding("lock table audit_log in exclusive mode");
    const pending = api("PUT", `/api/v1/consumer-groups/${GROUP}`, { ttlSeconds: 60, reason: "kill me" });
    await terminate(await weirBackendWaiting("wait_event_type = 'Lock'"));
    expectStoreUnavailable(await pending);
    await lock.release();
    // The transaction died before COMMIT: the TTL and its history are unchanged.
    const groups = await api("GET", "/api/v1/consumer-groups");
    expect(groups.body.groups.find((g: { id: string }) => g.id === GROUP).ttlSeconds).toBe(3600);
    const history = await api("GET", `/api/v1/consumer-groups/${GROUP}/ttl-changes`);
    expect(history.body.changes.map((c: { newTtlSeconds: number }) => c.newTtlSeconds)).toEqual([3600]);
    const retry = await api("PUT", `/api/v1/consumer-groups/${GROUP}`, { ttlSeconds: 60, reason: "retry" });
    expect(retry.status).toBe(200);
    expect(retry.body.group.ttlSeconds).toBe(60);
    expect(node.exit).toBeUndefined();
  });

  it("while idle in the pool: the next requests are answered, none is refused", async () => {
    for (let i = 0; i < 8; i++) await checkKey(`warm-${i}`, { i });
    const { rows } = await observer.query<{ n: number }>(
      "select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and application_name = 'weir'",
      [DATABASE],
    );
    killed += rows[0]!.n;
    expect(rows[0]!.n).toBeGreaterThan(0);
    await sleep(50);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => checkKey(`warm-${i}`, { i })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers.every((a) => a.body.decision === "duplicate")).toBe(true);
  });

  it("left the process running and never answered 500", () => {
    expect(node.exit).toBeUndefined();
    expect(node.internalErrors()).toEqual([]);
    console.log(`[backend-kill] ${killed} backends terminated mid-request or idle; process alive; 0 internal errors`);
  });
});
