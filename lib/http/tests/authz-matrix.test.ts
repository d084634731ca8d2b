import { beforeAll, describe, expect, it } from "vitest";
import { accessPolicy } from "@/lib/http/access";
import { createApiRoutes } from "@/lib/http/routes";
import { signedInUser } from "@/test/auth-fixtures";
import { startTestApi, type Caller, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

/**
 * Every route of the machine API, called as every kind of caller. The table
 * below is written independently of the routes' access rules: a route added
 * without a row here, or a rule that drifts from it, fails this test.
 */
type Who = "anonymous" | "viewer" | "operator" | "admin" | "service" | "other-service" | "other-admin";
/** "other-admin" is an admin token scoped to the other service, group and scope: an admin, but not of these ids. */
const EVERYONE: Who[] = ["anonymous", "viewer", "operator", "admin", "service", "other-service", "other-admin"];
const SCOPED_OUT: Who[] = ["other-service", "other-admin"];
const READERS: Who[] = ["viewer", "operator", "admin", "service"];
const DECIDERS: Who[] = ["admin", "service"];
const OPERATORS: Who[] = ["operator", "admin"];
const ADMINS: Who[] = ["admin"];

interface Fixture {
  service: string;
  key: string;
  group: string;
  scope: string;
  userId: string;
  tokenId: () => Promise<string>;
  startedKey: () => Promise<{ key: string; attempt: number }>;
  completedKey: () => Promise<string>;
}

interface Case {
  allowed: Who[];
  /** Lists answer to any reader, but only with what the caller's scope covers. */
  filtered?: true;
  call: (f: Fixture) => Promise<{ path: string; body?: unknown }> | { path: string; body?: unknown };
}

let n = 0;
const next = (prefix: string) => `${prefix}-${++n}`;

const MATRIX: Record<string, Case> = {
  "GET /api/health": { allowed: EVERYONE, call: () => ({ path: "/api/health" }) },
  "GET /api/v1/openapi.json": { allowed: EVERYONE, call: () => ({ path: "/api/v1/openapi.json" }) },
  "GET /api/metrics": { allowed: EVERYONE, call: () => ({ path: "/api/metrics" }) },
  "POST /api/v1/check": { allowed: DECIDERS, call: (f) => ({ path: "/api/v1/check", body: { serviceId: f.service, messageId: next("m"), payload: { a: 1 } } }) },
  "POST /api/v1/check/batch": {
    allowed: DECIDERS,
    call: (f) => ({ path: "/api/v1/check/batch", body: { items: [{ serviceId: f.service, messageId: next("m"), payload: { a: 1 } }] } }),
  },
  "POST /api/v1/check/revert": {
    allowed: DECIDERS,
    call: async (f) => {
      const messageId = next("m");
      expect((await api.request("POST", "/api/v1/check", { serviceId: f.service, messageId, payload: { a: 1 } })).status).toBe(200);
      return { path: "/api/v1/check/revert", body: { serviceId: f.service, messageId, version: 1 } };
    },
  },
  "GET /api/v1/services": { allowed: [...READERS, ...SCOPED_OUT], filtered: true, call: () => ({ path: "/api/v1/services" }) },
  "GET /api/v1/services/:id": { allowed: READERS, call: (f) => ({ path: `/api/v1/services/${f.service}` }) },
  "PUT /api/v1/services/:id": { allowed: ADMINS, call: (f) => ({ path: `/api/v1/services/${f.service}`, body: { displayName: "Orders", historyDepth: 2 } }) },
  "POST /api/v1/services/:id/explain": { allowed: READERS, call: (f) => ({ path: `/api/v1/services/${f.service}/explain`, body: { messageId: f.key, payload: "{\"amount\":1}" } }) },
  "GET /api/v1/services/:id/keys/:messageId": { allowed: READERS, call: (f) => ({ path: `/api/v1/services/${f.service}/keys/${f.key}` }) },
  "POST /api/v1/claim": { allowed: DECIDERS, call: (f) => ({ path: "/api/v1/claim", body: { consumerGroup: f.group, messageId: next("c") } }) },
  "POST /api/v1/claim/batch": { allowed: DECIDERS, call: (f) => ({ path: "/api/v1/claim/batch", body: { items: [{ consumerGroup: f.group, messageId: next("c") }] } }) },
  // Giving a failed claim back, like an idempotency release: the service after a failure, or an operator.
  "POST /api/v1/claim/release": { allowed: [...OPERATORS, "service"], call: (f) => ({ path: "/api/v1/claim/release", body: { consumerGroup: f.group, messageId: next("c") } }) },
  "POST /api/v1/cleanup": { allowed: OPERATORS, call: () => ({ path: "/api/v1/cleanup", body: { maxBatches: 1 } }) },
  "PUT /api/v1/services/:id/retention": { allowed: OPERATORS, call: (f) => ({ path: `/api/v1/services/${f.service}/retention`, body: { maxAgeSeconds: 86_400, reason: "matrix" } }) },
  "PUT /api/v1/idempotency-scopes/:id/retention": {
    allowed: OPERATORS,
    call: (f) => ({ path: `/api/v1/idempotency-scopes/${f.scope}/retention`, body: { maxAgeSeconds: null, reason: "matrix" } }),
  },
  "POST /api/v1/erasures/preview": { allowed: OPERATORS, call: (f) => ({ path: "/api/v1/erasures/preview", body: { kind: "service", subject: f.service, key: f.key } }) },
  "POST /api/v1/erasures": {
    allowed: OPERATORS,
    call: (f) => {
      const key = next("gone");
      return { path: "/api/v1/erasures", body: { kind: "group", subject: f.group, key, reason: "matrix", confirmation: key } };
    },
  },
  "GET /api/v1/consumer-groups": { allowed: [...READERS, ...SCOPED_OUT], filtered: true, call: () => ({ path: "/api/v1/consumer-groups" }) },
  "PUT /api/v1/consumer-groups/:id": { allowed: OPERATORS, call: (f) => ({ path: `/api/v1/consumer-groups/${f.group}`, body: { ttlSeconds: 3600, reason: "matrix" } }) },
  "POST /api/v1/consumer-groups/:id/ttl-preview": { allowed: READERS, call: (f) => ({ path: `/api/v1/consumer-groups/${f.group}/ttl-preview`, body: { ttlSeconds: 60 } }) },
  "GET /api/v1/consumer-groups/:id/ttl-changes": { allowed: READERS, call: (f) => ({ path: `/api/v1/consumer-groups/${f.group}/ttl-changes` }) },
  "POST /api/v1/idempotency/:scope/begin": { allowed: DECIDERS, call: (f) => ({ path: `/api/v1/idempotency/${f.scope}/begin`, body: { key: next("k"), request: { n } } }) },
  "POST /api/v1/idempotency/:scope/complete": {
    allowed: DECIDERS,
    call: async (f) => {
      const { key, attempt } = await f.startedKey();
      return { path: `/api/v1/idempotency/${f.scope}/complete`, body: { key, attempt, request: { key }, response: { status: 200, body: "ok" } } };
    },
  },
  "POST /api/v1/idempotency/:scope/release": {
    allowed: [...OPERATORS, "service"],
    call: async (f) => ({ path: `/api/v1/idempotency/${f.scope}/release`, body: await f.startedKey() }),
  },
  "GET /api/v1/idempotency/:scope/:key": { allowed: READERS, call: async (f) => ({ path: `/api/v1/idempotency/${f.scope}/${(await f.startedKey()).key}` }) },
  "DELETE /api/v1/idempotency/:scope/:key": {
    allowed: OPERATORS,
    call: async (f) => ({ path: `/api/v1/idempotency/${f.scope}/${await f.completedKey()}`, body: { reason: "matrix" } }),
  },
  "GET /api/v1/idempotency-scopes/:id": { allowed: READERS, call: (f) => ({ path: `/api/v1/idempotency-scopes/${f.scope}` }) },
  "PUT /api/v1/idempotency-scopes/:id": { allowed: OPERATORS, call: (f) => ({ path: `/api/v1/idempotency-scopes/${f.scope}`, body: { retentionSeconds: 7200 } }) },
  "GET /api/v1/journal/:mode/:subject": {
    allowed: READERS,
    call: (f) => ({ path: `/api/v1/journal/last_seen/${f.service}?from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}` }),
  },
  "GET /api/v1/journal/:mode/:subject/keys/:key": { allowed: READERS, call: (f) => ({ path: `/api/v1/journal/last_seen/${f.service}/keys/${f.key}` }) },
  "GET /api/v1/journal/:mode/:subject/level": { allowed: READERS, call: (f) => ({ path: `/api/v1/journal/window/${f.group}/level` }) },
  "PUT /api/v1/journal/:mode/:subject/level": { allowed: OPERATORS, call: (f) => ({ path: `/api/v1/journal/idempotency/${f.scope}/level`, body: { level: "all", reason: "matrix" } }) },
  "GET /api/v1/tokens": { allowed: [...ADMINS, "other-admin"], filtered: true, call: () => ({ path: "/api/v1/tokens" }) },
  "POST /api/v1/tokens": { allowed: ADMINS, call: (f) => ({ path: "/api/v1/tokens", body: { name: next("t"), services: [f.service] } }) },
  "DELETE /api/v1/tokens/:id": { allowed: ADMINS, call: async (f) => ({ path: `/api/v1/tokens/${await f.tokenId()}`, body: { reason: "matrix" } }) },
  "GET /api/v1/users": { allowed: ADMINS, call: () => ({ path: "/api/v1/users" }) },
  "POST /api/v1/users": { allowed: ADMINS, call: () => ({ path: "/api/v1/users", body: { email: `${next("u")}@weir.test`, password: "long enough password", role: "viewer" } }) },
  "PUT /api/v1/users/:id/role": { allowed: ADMINS, call: (f) => ({ path: `/api/v1/users/${f.userId}/role`, body: { role: "operator" } }) },
  "GET /api/v1/idempotency-scopes/:id/stuck": { allowed: OPERATORS, call: (f) => ({ path: `/api/v1/idempotency-scopes/${f.scope}/stuck` }) },
  "POST /api/v1/idempotency-scopes/:id/release-stuck": { allowed: OPERATORS, call: (f) => ({ path: `/api/v1/idempotency-scopes/${f.scope}/release-stuck`, body: { reason: "matrix" } }) },
  "POST /api/v1/users/:id/disable": { allowed: ADMINS, call: (f) => ({ path: `/api/v1/users/${f.userId}/disable`, body: { reason: "matrix" } }) },
  "POST /api/v1/users/:id/password": { allowed: ADMINS, call: (f) => ({ path: `/api/v1/users/${f.userId}/password`, body: { reason: "matrix" } }) },
};

let store: TestDatabase;
let api: TestApi;
let fixture: Fixture;
const tokens = {} as Record<Exclude<Who, "anonymous">, string>;
const sessions = {} as Record<"viewer" | "operator" | "admin", string>;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  const service = await createService(store.db);
  const otherService = await createService(store.db);
  const [group, otherGroup, scope, otherScope] = [uniqueId("grp"), uniqueId("grp"), uniqueId("scope"), uniqueId("scope")];
  const all = { services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] };
  tokens.admin = api.adminToken;
  tokens.viewer = await api.createToken({ name: "viewer", role: "viewer", ...all });
  tokens.operator = await api.createToken({ name: "operator", role: "operator", ...all });
  tokens.service = await api.createToken({ name: "own", role: "service", services: [service], consumerGroups: [group], idempotencyScopes: [scope] });
  const others = { services: [otherService], consumerGroups: [otherGroup], idempotencyScopes: [otherScope] };
  tokens["other-service"] = await api.createToken({ name: "other", role: "service", ...others });
  tokens["other-admin"] = await api.createToken({ name: "other admin", role: "admin", ...others });
  for (const role of ["viewer", "operator", "admin"] as const) sessions[role] = (await signedInUser(store.db, role)).cookie;
  const key = "matrix-key";
  expect((await api.request("POST", "/api/v1/check", { serviceId: service, messageId: key, payload: { v: 1 } })).status).toBe(200);
  expect((await api.request("PUT", `/api/v1/consumer-groups/${group}`, { ttlSeconds: 600, reason: "matrix setup" })).status).toBe(201);
  expect((await api.request("PUT", `/api/v1/idempotency-scopes/${scope}`, { lockSeconds: 60 })).status).toBe(201);
  const target = await api.request("POST", "/api/v1/users", { email: `target-${uniqueId("u")}@weir.test`, password: "long enough password" });
  fixture = {
    service,
    key,
    group,
    scope,
    userId: target.body.id,
    tokenId: async () => (await api.request("POST", "/api/v1/tokens", { name: next("doomed"), services: [service] })).body.details.id,
    startedKey: async () => {
      const k = next("started");
      const begun = await api.request("POST", `/api/v1/idempotency/${scope}/begin`, { key: k, request: { key: k } });
      return { key: k, attempt: begun.body.attempt };
    },
    completedKey: async () => {
      const { key, attempt } = await fixture.startedKey();
      const done = await api.request("POST", `/api/v1/idempotency/${scope}/complete`, { key, attempt, request: { key }, response: { status: 200, body: "ok" } });
      expect(done.status).toBe(200);
      return key;
    },
  };
});

function callerFor(who: Who, via: "token" | "session"): Caller {
  if (who === "anonymous") return null;
  if (via === "session" && (who === "viewer" || who === "operator" || who === "admin")) {
    // A browser sends Origin on writes; the API refuses cookie-authenticated writes without ours.
    return { headers: { cookie: sessions[who], origin: api.url } };
  }
  return tokens[who];
}

const routes = createApiRoutes(async () => {
  throw new Error("only the route table is read here");
});

describe("authorisation matrix of the machine API", () => {
  it("has a row here and a rule in the policy for every route, and nothing else", () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(Object.keys(MATRIX).sort()).toEqual(keys);
    expect(Object.keys(accessPolicy(routes)).sort()).toEqual(keys);
  });

  for (const via of ["token", "session"] as const) {
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      it(`${name} via ${via}`, async () => {
        const row = MATRIX[name]!;
        const callers = via === "token" ? EVERYONE : (["anonymous", "viewer", "operator", "admin"] as Who[]);
        for (const who of callers) {
          const { path, body } = await row.call(fixture);
          const response = await api.as(callerFor(who, via)).request(route.method, path, body);
          const label = `${who} ${name} -> ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
          if (row.allowed.includes(who) || (who === "anonymous" && row.allowed.includes("anonymous"))) {
            expect(response.status, label).toBeLessThan(400);
          } else {
            expect(response.status, label).toBe(who === "anonymous" ? 401 : 403);
          }
          if (row.filtered && SCOPED_OUT.includes(who)) expect(JSON.stringify(response.body), label).not.toMatch(new RegExp(`${fixture.service}|${fixture.group}`));
        }
      });
    }
  }
});

describe("cross-service isolation", () => {
  it("refuses a token for one service on another's keys inside a batch, without deciding any item", async () => {
    const other = await createService(store.db);
    const mixed = await api.as(tokens.service).request("POST", "/api/v1/check/batch", {
      items: [
        { serviceId: fixture.service, messageId: "iso-1", payload: 1 },
        { serviceId: other, messageId: "iso-1", payload: 1 },
      ],
    });
    expect(mixed.status).toBe(403);
    const own = await api.as(tokens.service).request("POST", "/api/v1/check", { serviceId: fixture.service, messageId: "iso-1", payload: 1 });
    expect(own.body.decision).toBe("new");
  });

  it("answers 403, not 404, for a service outside the scope, so existence does not leak", async () => {
    const missing = await api.as(tokens["other-service"]).request("GET", "/api/v1/services/does-not-exist");
    expect(missing.status).toBe(403);
  });

  it("refuses unknown, malformed and revoked tokens with 401", async () => {
    expect((await api.as("weir_" + "x".repeat(43)).request("GET", "/api/v1/services")).status).toBe(401);
    const malformed = await api.as({ headers: { authorization: "Basic abc" } }).request("GET", "/api/v1/services");
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get("www-authenticate")).toContain("Bearer");
    const doomed = await api.createToken({ name: "doomed", role: "viewer", services: ["*"] });
    expect((await api.as(doomed).request("GET", "/api/v1/services")).status).toBe(200);
    const list = await api.request("GET", "/api/v1/tokens");
    const id = list.body.tokens.find((t: { name: string }) => t.name === "doomed").id;
    expect((await api.request("DELETE", `/api/v1/tokens/${id}`, { reason: "matrix" })).status).toBe(200);
    expect((await api.as(doomed).request("GET", "/api/v1/services")).status).toBe(401);
  });

  it("lets a scoped admin token grant only what it holds", async () => {
    const scopedAdmin = await api.createToken({ name: "scoped admin", role: "admin", services: [fixture.service] });
    const within = await api.as(scopedAdmin).request("POST", "/api/v1/tokens", { name: "child", services: [fixture.service] });
    expect(within.status).toBe(201);
    const beyond = await api.as(scopedAdmin).request("POST", "/api/v1/tokens", { name: "child", services: ["*"] });
    expect(beyond.status).toBe(403);
  });

  it("lets a scoped admin token see and revoke only tokens within its own scopes", async () => {
    const admin = api.as(tokens["other-admin"]);
    const listed = await admin.request("GET", "/api/v1/tokens");
    expect(listed.status).toBe(200);
    const names = listed.body.tokens.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["other", "other admin"]));
    expect(names).not.toContain("test admin");
    expect(names).not.toContain("own");
    const all = (await api.request("GET", "/api/v1/tokens")).body.tokens as { id: string; name: string }[];
    const star = all.find((t) => t.name === "test admin")!;
    const own = all.find((t) => t.name === "own")!;
    expect((await admin.request("DELETE", `/api/v1/tokens/${star.id}`, { reason: "matrix" })).status).toBe(403);
    expect((await admin.request("DELETE", `/api/v1/tokens/${own.id}`, { reason: "matrix" })).status).toBe(403);
    // An unknown id answers like a forbidden one, so a scoped token cannot probe which ids exist.
    expect((await admin.request("DELETE", "/api/v1/tokens/tok_doesnotexist1", { reason: "matrix" })).status).toBe(403);
    expect((await api.request("DELETE", "/api/v1/tokens/tok_doesnotexist1", { reason: "matrix" })).status).toBe(404);
    const other = (await api.request("GET", "/api/v1/tokens")).body.tokens.find((t: { name: string }) => t.name === "other")!;
    const child = await admin.request("POST", "/api/v1/tokens", { name: "child of other", services: other.services, consumerGroups: other.consumerGroups });
    expect(child.status).toBe(201);
    expect((await admin.request("DELETE", `/api/v1/tokens/${child.body.details.id}`, { reason: "matrix" })).status).toBe(200);
    expect((await api.request("GET", "/api/v1/users")).status).toBe(200);
    expect((await admin.request("GET", "/api/v1/users")).status).toBe(403);
  });

  it("refuses cookie-authenticated writes whose Origin is missing, null or foreign", async () => {
    const body = { name: "csrf" };
    for (const origin of [undefined, "null", "https://evil.example"]) {
      const headers: Record<string, string> = { cookie: sessions.admin, ...(origin ? { origin } : {}) };
      const response = await api.as({ headers }).request("POST", "/api/v1/tokens", body);
      expect(response.status, String(origin)).toBe(403);
    }
    expect((await api.as({ headers: { cookie: sessions.admin, origin: api.url } }).request("POST", "/api/v1/tokens", body)).status).toBe(201);
  });
});
