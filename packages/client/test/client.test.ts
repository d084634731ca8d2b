import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "@/lib/errors";
import { createApiRoutes } from "@/lib/http/routes";
import { Router } from "@/lib/http/router";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createWeirClient, type WeirClient } from "../src/client";
import { WeirApiError, WeirConnectionError, WeirProtocolError, WeirTimeoutError } from "../src/errors";
import { withRequestId } from "../src/request-id";
import { createTestToken } from "@/test/token.fixture";
import type { RetryInfo } from "../src/transport";

let store: TestDatabase;
let api: TestApi;
let client: WeirClient;
let token: string;
const servers: http.Server[] = [];

/** A local HTTP server for one scenario; closed when the file ends. */
async function serve(handler: http.RequestListener, port = 0): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Forwards a request to the real API. */
function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
  const upstream = http.request(`${api.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  req.pipe(upstream);
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  token = await createTestToken(store.db);
  client = createWeirClient({ baseUrl: api.url, token, minDelayMs: 5, maxDelayMs: 50 });
});

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await store.close();
});

describe("typed calls", () => {
  it("registers a service and checks single and batch", async () => {
    const id = uniqueId("svc");
    const service = await client.putService(id, { displayName: "Client test", ignoredPaths: ["/sentAt"], historyDepth: 2 });
    expect(service).toMatchObject({ id, displayName: "Client test", historyDepth: 2 });
    expect((await client.listServices()).map((s) => s.id)).toContain(id);
    expect((await client.getService(id)).ignoredPaths).toEqual(["/sentAt"]);

    const first = await client.check({ serviceId: id, messageId: "A-1", payload: { total: "10.00", sentAt: "t1" } });
    expect(first).toMatchObject({ decision: "new", version: 1 });
    expect((await client.check({ serviceId: id, messageId: "A-1", payload: { sentAt: "t2", total: "10.00" } })).decision).toBe("duplicate");
    const batch = await client.checkBatch([
      { serviceId: id, messageId: "A-1", payload: { total: "11.00" } },
      { serviceId: id, messageId: "A-2", payload: 1 },
      { serviceId: id, messageId: "A-2", payload: 1 },
    ]);
    expect(batch.map((r) => r.decision)).toEqual(["changed", "new", "duplicate"]);
    const detail = await client.getKey(id, "A-1");
    expect(detail.state.version).toBe(2);
    expect(detail.versions).toHaveLength(2);
  });

  it("claims, configures consumer groups and runs cleanup", async () => {
    const group = uniqueId("grp");
    const put = await client.putConsumerGroup(group, { ttlSeconds: 3600, reason: "client test" });
    expect(put.created).toBe(true);
    expect((await client.claim({ consumerGroup: group, messageId: "m-1" })).decision).toBe("new");
    const batch = await client.claimBatch([
      { consumerGroup: group, messageId: "m-1" },
      { consumerGroup: group, messageId: "m-2" },
    ]);
    expect(batch.map((r) => r.decision)).toEqual(["duplicate", "new"]);
    const preview = await client.previewTtl(group, 60);
    expect(preview).toMatchObject({ consumerGroup: group, currentTtlSeconds: 3600, newTtlSeconds: 60, liveNow: 2 });
    expect((await client.listConsumerGroups()).groups.map((g) => g.id)).toContain(group);
    expect((await client.ttlChanges(group, { limit: 5 })).changes[0]).toMatchObject({ consumerGroup: group, newTtlSeconds: 3600 });
    const cleanup = await client.cleanup({ batchSize: 100 });
    expect(cleanup.complete).toBe(true);
    expect(cleanup.lag.seconds).toBeGreaterThanOrEqual(0);
  });

  it("runs the idempotency-key state machine, with 409 and 422 as outcomes", async () => {
    const scope = uniqueId("scope");
    await client.putScope(scope, { lockSeconds: 30, reason: "client test" });
    expect((await client.getScope(scope)).lockSeconds).toBe(30);
    const started = await client.begin(scope, { key: "k", request: { amount: 1 } });
    if (started.outcome !== "started") throw new Error(`expected started, got ${started.outcome}`);
    expect(await client.begin(scope, { key: "k", request: { amount: 1 } })).toMatchObject({ outcome: "in_progress", attempt: started.attempt });
    expect(await client.begin(scope, { key: "k", request: { amount: 2 } })).toMatchObject({ outcome: "mismatch", requestHash: expect.any(String) });
    expect(await client.release(scope, { key: "k", attempt: started.attempt })).toMatchObject({ released: true });
    const again = await client.begin(scope, { key: "k", request: { amount: 1 } });
    if (again.outcome !== "started") throw new Error("expected started");
    await client.complete(scope, { key: "k", request: { amount: 1 }, attempt: again.attempt, response: { status: 201, body: "{\"id\":7}" } });
    expect(await client.begin(scope, { key: "k", request: { amount: 1 } })).toMatchObject({
      outcome: "completed",
      response: { status: 201, body: "{\"id\":7}" },
    });
  });

  it("manages tokens and users (admin)", async () => {
    const created = await client.createToken({ name: "client test", role: "service", services: ["svc-a"], reason: "test" });
    expect(created.token).toMatch(/^weir_/);
    expect((await client.listTokens()).map((t) => t.id)).toContain(created.details.id);
    const scoped = createWeirClient({ baseUrl: api.url, token: created.token });
    await expect(scoped.check({ serviceId: "svc-b", messageId: "m", payload: 1 })).rejects.toMatchObject({ status: 403 });
    expect((await client.revokeToken(created.details.id, "done")).revokedAt).not.toBeNull();
    await expect(scoped.listServices()).rejects.toMatchObject({ status: 401 });

    const email = `${uniqueId("user")}@example.com`;
    const user = await client.createUser({ email, password: "a long enough password", role: "viewer" });
    expect(user).toMatchObject({ email, role: "viewer" });
    expect((await client.setUserRole(user.id, { role: "operator", reason: "on-call" })).role).toBe("operator");
    expect((await client.listUsers()).find((u) => u.email === email)?.role).toBe("operator");
  });

  it("has a method for every route of the API", async () => {
    const routes = createApiRoutes(async () => store);
    const routeOf = new Map(routes.map((r) => [r.handler, `${r.method} ${r.path}`]));
    const router = new Router(routes);
    const hit = new Set<string>();
    const recorder = createWeirClient({
      baseUrl: "http://weir.test",
      retries: 0,
      fetch: async (url, init) => {
        hit.add(routeOf.get(router.match(init?.method ?? "GET", new URL(String(url)).pathname).handler)!);
        return new Response("{}", { status: 500, headers: { "content-type": "application/json" } });
      },
    });
    type Methods = { [K in keyof WeirClient as WeirClient[K] extends (...args: never[]) => unknown ? K : never]: () => Promise<unknown> };
    const r = recorder;
    const calls: Methods = {
      check: () => r.check({ serviceId: "s", messageId: "m", payload: 1 }),
      checkBatch: () => r.checkBatch([]),
      revert: () => r.revert({ serviceId: "s", messageId: "m", version: 1 }),
      claim: () => r.claim({ consumerGroup: "g", messageId: "m" }),
      claimBatch: () => r.claimBatch([]),
      releaseClaim: () => r.releaseClaim({ consumerGroup: "g", messageId: "m" }),
      listConsumerGroups: () => r.listConsumerGroups(),
      putConsumerGroup: () => r.putConsumerGroup("g", { ttlSeconds: 1, reason: "x" }),
      previewTtl: () => r.previewTtl("g", 1),
      ttlChanges: () => r.ttlChanges("g"),
      cleanup: () => r.cleanup(),
      begin: () => r.begin("s", { key: "k", request: 1 }),
      complete: () => r.complete("s", { key: "k", request: 1, response: { status: 200, body: "" } }),
      release: () => r.release("s", { key: "k", attempt: 1 }),
      getIdempotencyKey: () => r.getIdempotencyKey("s", "k"),
      deleteIdempotencyKey: () => r.deleteIdempotencyKey("s", "k", "x"),
      getScope: () => r.getScope("s"),
      putScope: () => r.putScope("s", {}),
      stuckKeys: () => r.stuckKeys("s"),
      releaseStuck: () => r.releaseStuck("s", { reason: "x" }),
      setScopeRetention: () => r.setScopeRetention("s", { maxAgeSeconds: null, reason: "x" }),
      setServiceRetention: () => r.setServiceRetention("s", { maxAgeSeconds: null, reason: "x" }),
      journalRange: () => r.journalRange("last_seen", "s", { from: "2026-01-01", to: "2026-01-02" }),
      journalEntries: () => r.journalEntries("last_seen", "s", { from: "2026-01-01", to: "2026-01-02" }).next(),
      journalKey: () => r.journalKey("last_seen", "s", "k"),
      journalLevel: () => r.journalLevel("window", "g"),
      setJournalLevel: () => r.setJournalLevel("idempotency", "s", { level: "off" }),
      listServices: () => r.listServices(),
      getService: () => r.getService("s"),
      putService: () => r.putService("s", {}),
      getKey: () => r.getKey("s", "m"),
      previewErase: () => r.previewErase({ kind: "service", subject: "s" }),
      erase: () => r.erase({ kind: "service", subject: "s", reason: "x", confirmation: "s" }),
      explain: () => r.explain("s", { messageId: "m", payload: "{}" }),
      listTokens: () => r.listTokens(),
      createToken: () => r.createToken({ name: "t" }),
      revokeToken: () => r.revokeToken("tok_x", "leaked"),
      listUsers: () => r.listUsers(),
      createUser: () => r.createUser({ email: "a@b.c", password: "x".repeat(12) }),
      setUserRole: () => r.setUserRole("u", { role: "viewer" }),
      disableUser: () => r.disableUser("u", { reason: "x" }),
      resetUserPassword: () => r.resetUserPassword("u", { reason: "x" }),
      health: () => r.health(),
      metrics: () => r.metrics(),
      openApi: () => r.openApi(),
    };
    for (const call of Object.values(calls)) await call().catch(() => undefined);
    expect(routes.map((route) => `${route.method} ${route.path}`).filter((route) => !hit.has(route))).toEqual([]);
  });

  it("reads health, metrics and the OpenAPI document", async () => {
    expect(await client.health()).toMatchObject({ status: "ok", store: { reachable: true } });
    expect(await client.metrics()).toContain("weir_checks_total");
    expect((await client.openApi()).openapi).toMatch(/^3\.1/);
  });

  it("turns error answers into typed errors with the offending field", async () => {
    const missing = await client.check({ serviceId: uniqueId("none"), messageId: "x", payload: 1 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(WeirApiError);
    expect(missing).toMatchObject({ status: 404, code: "not_found", field: "serviceId", outcome: "not_made", retryable: false });
    const bad = await client.claim({ consumerGroup: "bad group", messageId: "m" }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, field: "consumerGroup" });
  });
});

describe("retries", () => {
  it("retries a 503 (no decision was made) and returns the real decision", async () => {
    const id = uniqueId("svc");
    await client.putService(id, {});
    let refused = 0;
    const flaky = await serve((req, res) => {
      if (refused < 2) {
        refused++;
        req.resume();
        res.writeHead(503, { "content-type": "application/json", "retry-after": "0" });
        return void res.end(JSON.stringify({ error: { code: "store_unavailable", message: "down" } }));
      }
      forward(req, res);
    });
    const retries: RetryInfo[] = [];
    const viaFlaky = createWeirClient({ baseUrl: flaky, token, minDelayMs: 5, onRetry: (info) => retries.push(info) });
    const outcome = await viaFlaky.check({ serviceId: id, messageId: "m", payload: { a: 1 } });
    expect(outcome.decision).toBe("new");
    expect(retries.map((r) => r.reason)).toEqual(["HTTP 503", "HTTP 503"]);
    expect(new Set(retries.map((r) => r.requestId)).size).toBe(1);
    expect((await client.check({ serviceId: id, messageId: "m", payload: { a: 1 } })).decision).toBe("duplicate");
  });

  it("gives up with a 503 error, never a decision, when the store stays down", async () => {
    const down = await startTestApi(() => Promise.reject(new StoreUnavailableError(0)));
    const retries: RetryInfo[] = [];
    const downClient = createWeirClient({ baseUrl: down.url, token, retries: 2, minDelayMs: 1, maxDelayMs: 5, onRetry: (i) => retries.push(i) });
    const err = await downClient.check({ serviceId: "svc", messageId: "m", payload: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeirApiError);
    expect(err).toMatchObject({ status: 503, code: "store_unavailable", outcome: "not_made", retryable: true });
    expect(retries).toHaveLength(2);
    await expect(downClient.claim({ consumerGroup: "g", messageId: "m" })).rejects.toMatchObject({ status: 503 });
  });

  it("retries a connection refused before the request was sent, until weir is up", async () => {
    const port = await freePort();
    const id = uniqueId("svc");
    await client.putService(id, {});
    const reasons: string[] = [];
    let started: Promise<string> | undefined;
    const late = createWeirClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token,
      retries: 20,
      minDelayMs: 20,
      maxDelayMs: 50,
      onRetry: (info) => {
        reasons.push(info.reason);
        started ??= serve(forward, port);
      },
    });
    expect((await late.check({ serviceId: id, messageId: "m", payload: 1 })).decision).toBe("new");
    expect(reasons[0]).toBe("ECONNREFUSED");
  });

  it("fails with outcome not_made when weir never comes up", async () => {
    const port = await freePort();
    const nobody = createWeirClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 2, minDelayMs: 1, maxDelayMs: 2 });
    const err = await nobody.check({ serviceId: "s", messageId: "m", payload: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeirConnectionError);
    expect(err).toMatchObject({ outcome: "not_made", retryable: true });
  });

  it("never retries a POST whose answer was lost: the outcome is unknown", async () => {
    let received = 0;
    const dropping = await serve((req) => {
      received++;
      req.resume();
      req.on("end", () => req.socket.destroy());
    });
    const lossy = createWeirClient({ baseUrl: dropping, retries: 3, minDelayMs: 1 });
    const err = await lossy.check({ serviceId: "s", messageId: "m", payload: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeirConnectionError);
    expect(err).toMatchObject({ outcome: "unknown" });
    expect(received).toBe(1);
    // A GET is safe to repeat.
    received = 0;
    await expect(lossy.listServices()).rejects.toBeInstanceOf(WeirConnectionError);
    expect(received).toBe(4);
  });

  it("times out through AbortSignal without retrying a decision", async () => {
    let received = 0;
    const silent = await serve((req) => {
      received++;
      req.resume();
    });
    const slow = createWeirClient({ baseUrl: silent, timeoutMs: 150, retries: 3, minDelayMs: 1 });
    const started = Date.now();
    const err = await slow.claim({ consumerGroup: "g", messageId: "m" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeirTimeoutError);
    expect(err).toMatchObject({ outcome: "unknown" });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(received).toBe(1);
    const controller = new AbortController();
    const pending = slow.check({ serviceId: "s", messageId: "m", payload: 1 }, { signal: controller.signal, timeoutMs: 10_000 });
    controller.abort(new Error("consumer shutting down"));
    await expect(pending).rejects.toThrow("consumer shutting down");
  });

  it("refuses a 2xx answer that carries no decision for the key", async () => {
    const liar = await serve((req, res) => {
      req.resume();
      const body = req.url === "/api/v1/claim" ? { consumerGroup: "g", messageId: "other", decision: "new" } : { decision: "maybe" };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    const lying = createWeirClient({ baseUrl: liar });
    await expect(lying.check({ serviceId: "s", messageId: "m", payload: 1 })).rejects.toBeInstanceOf(WeirProtocolError);
    await expect(lying.claim({ consumerGroup: "g", messageId: "m" })).rejects.toThrow(/not m/);
    await expect(lying.checkBatch([{ serviceId: "s", messageId: "m", payload: 1 }])).rejects.toBeInstanceOf(WeirProtocolError);
  });
});

describe("request ids and tokens", () => {
  it("sends the surrounding request id and the bearer token", async () => {
    const seen: { id?: string; auth?: string }[] = [];
    const spy = await serve((req, res) => {
      seen.push({ id: req.headers["x-request-id"] as string, auth: req.headers.authorization });
      forward(req, res);
    });
    const tokenClient = createWeirClient({ baseUrl: spy, token });
    await withRequestId("trace-123", () => tokenClient.health());
    await tokenClient.health({ requestId: "explicit-1" });
    await tokenClient.health();
    expect(seen[0]).toEqual({ id: "trace-123", auth: `Bearer ${token}` });
    expect(seen[1]!.id).toBe("explicit-1");
    expect(seen[2]!.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
