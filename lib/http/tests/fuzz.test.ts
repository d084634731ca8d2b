import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiRoutes } from "@/lib/http/routes";
import { setGroupTtl } from "@/lib/dedup/window/set-group-ttl";
import { startTestApi, type TestApi, type TestResponse } from "@/test/api-server";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

/**
 * Hostile input on every route of the API (the route table itself is iterated,
 * so a new route is fuzzed the day it is added): malformed and hostile JSON,
 * wrong types, deep nesting, huge bodies, giant ids, unicode edge cases and SQL
 * metacharacters in every path parameter, query parameter and body field.
 * Never a 5xx; every refusal is a 4xx with a JSON error that says what is
 * wrong; a refused request changes no row of any table.
 */
let store: TestDatabase;
let api: TestApi;
let serviceId: string;
const GROUP = "fuzz-group";
const RUNS = Number(process.env.WEIR_FUZZ_RUNS ?? 60);
const tally: Record<string, number> = {};

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  serviceId = await createService(store.db, { historyDepth: 2 });
  await setGroupTtl(store.db, { consumerGroup: GROUP, ttlSeconds: 3600, graceSeconds: null, reason: "fuzz", actor: { id: "t", role: "admin" } });
  await api.request("POST", "/api/v1/check", { serviceId, messageId: "seeded", payload: { a: 1 } });
  await api.request("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId: "seeded" });
});

/**
 * One checksum per table of the schema. Excluded by design: auth_rate_limits
 * (it counts attempts, refused ones included) and api_token_uses (written on
 * use, at most once a minute); api_tokens.last_used_at is no longer written.
 */
async function checksums(): Promise<Record<string, string>> {
  const tables = await store.db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('auth_rate_limits', 'api_token_uses') order by 1`,
  );
  const parts = (tables.rows as { name: string }[]).map(
    ({ name }) =>
      sql`select ${name} as name, md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' order by (to_jsonb(t) - 'last_used_at')::text), '')) as sum from ${sql.identifier(name)} t`,
  );
  const result = await store.db.execute<{ name: string; sum: string }>(sql.join(parts, sql` union all `));
  return Object.fromEntries((result.rows as { name: string; sum: string }[]).map((r) => [r.name, r.sum]));
}

const SQL_METAS = ["'", "''", "' OR '1'='1", "'; drop table last_seen; --", '"', "\\", "%", "_", "$1", "`", "/*", "*/", ";", "--", "\\x00", "E'\\\\'", "::text", "$$"];
const UNICODE = ["\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uD83D", "\u202Egnp.exe", "e\u0301", "\u0041\u030A", "\u200B", "\uFEFF", "\u2028", "\u{1F600}", "Ω≈ç√", "\u0085", "\r\n", "%00", "%2F", "../..", "/", "?", "#"];
const GIANT = ["x".repeat(600), "9".repeat(5000), "é".repeat(3000)];

const hostileString = fc.oneof(
  fc.constantFrom(...SQL_METAS, ...UNICODE, ...GIANT, "", " ", "null", "true", "0", "-1", "1e400", "NaN"),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.tuple(fc.constantFrom(...SQL_METAS), fc.constantFrom(...UNICODE)).map(([a, b]) => `id${a}${b}`),
);

const deep = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -0, -1, 1.5, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 1e308),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

const FIELDS = [
  "serviceId", "messageId", "payload", "items", "consumerGroup", "ttlSeconds", "graceSeconds", "reason", "key", "requestHash",
  "request", "attempt", "response", "status", "body", "headers", "lockSeconds", "retentionSeconds", "name", "role", "services",
  "consumerGroups", "idempotencyScopes", "expiresInDays", "email", "password", "displayName", "ignoredPaths", "historyDepth",
  "batchSize", "maxBatches", "__proto__", "constructor",
];

/** Raw body texts: what JSON.stringify cannot produce. */
const MALFORMED = [
  "{", "}", "[", "{\"a\":}", "[1,]", "{\"a\":1}x", "{'a':1}", "NaN", "undefined", "{\"a\":1,\"a\":2}", "\uFEFF{}", "1e99999",
  "{\"serviceId\":\"a\",\"serviceId\":\"b\"}", "\"\\ud800\"", "{\"x\":\"\\u0000\"}", "[".repeat(5000), deep(100_000, "[", "]"),
  deep(50_000, "{\"a\":", "}").replace(/}$/, "1}"), "", " ", "null", "0", "\"str\"", "[]",
];

const body = fc.oneof(
  fc.constantFrom(...MALFORMED),
  fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc.record({ items: fc.array(fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 4 }), { maxLength: 3 }) }).map((o) => JSON.stringify(o)),
  hostileValue.map((v) => JSON.stringify(v) ?? "null"),
);

/** Percent-encodes any string, lone surrogates included (as the UTF-8 bytes a careless client would send). */
function encodeSegment(value: string): string {
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}

const ROUTES = createApiRoutes(async () => store).map((r) => ({ method: r.method, path: r.path }));

interface Sent {
  method: string;
  path: string;
  body?: string;
}

async function send(req: Sent): Promise<TestResponse> {
  const res = await api.request(req.method, req.path, req.body);
  const label = `${Math.floor(res.status / 100)}xx`;
  tally[label] = (tally[label] ?? 0) + 1;
  return res;
}

afterAll(() => console.log(`[fuzz] ${ROUTES.length} routes, ${Object.values(tally).reduce((a, b) => a + b, 0)} hostile requests: ${JSON.stringify(tally)}`));

/** The rules every answer to hostile input follows. */
async function expectSafe(req: Sent, before: Record<string, string>): Promise<Record<string, string>> {
  const res = await send(req);
  const label = `${req.method} ${req.path.slice(0, 200)} ${String(req.body).slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  expect(res.status, label).toBeLessThan(500);
  const after = await checksums();
  if (res.status >= 400) {
    expect(res.headers.get("content-type"), label).toMatch(/^application\/json/);
    expect(typeof res.body?.error?.code, label).toBe("string");
    expect(typeof res.body?.error?.message, label).toBe("string");
    expect(res.body.error.message.length, label).toBeGreaterThan(3);
    expect(res.body.error.message, label).not.toMatch(/\n\s+at |internal error|syntax error at or near|relation "/);
    expect(after, label).toEqual(before);
  }
  return after;
}

describe("hostile input on every route", () => {
  it("covers the whole route table", () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(20);
    expect(ROUTES.filter((r) => r.path.includes(":")).length).toBeGreaterThanOrEqual(8);
  });

  for (const route of ROUTES) {
    it(`${route.method} ${route.path}`, async () => {
      let sums = await checksums();
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileString, { minLength: 2, maxLength: 2 }),
          fc.dictionary(fc.constantFrom("limit", "before", "includeRevoked", "from", "to", "cursor", "q"), hostileString, { maxKeys: 3 }),
          body,
          async (params, query, text) => {
            let i = 0;
            const path = route.path.replace(/:\w+/g, () => encodeSegment(params[i++ % params.length]!));
            const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, v.isWellFormed() ? v : "x"])).toString();
            // fast-check runs one case at a time: nothing else writes `sums` meanwhile.
            // eslint-disable-next-line require-atomic-updates
            sums = await expectSafe({ method: route.method, path: search ? `${path}?${search}` : path, body: route.method === "GET" ? undefined : text }, sums);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});

describe("hostile input, case by case", () => {
  const writes = ROUTES.filter((r) => r.method !== "GET");
  const concrete = (path: string) => path.replace(/:scope|:id|:messageId/g, (p) => (p === ":messageId" ? "seeded" : p === ":scope" ? "fuzz-scope" : serviceId));

  it("a body over 1 MiB is a 413 on every route that takes one", async () => {
    const huge = JSON.stringify({ serviceId, messageId: "huge", payload: "x".repeat(1024 * 1024 + 10) });
    let sums = await checksums();
    for (const route of writes) {
      const res = await send({ method: route.method, path: concrete(route.path), body: huge });
      expect([413, 400, 404], `${route.method} ${route.path} -> ${res.status}`).toContain(res.status);
      if (route.path === "/api/v1/check" || route.path === "/api/v1/claim") expect(res.status).toBe(413);
      sums = await expectSafe({ method: route.method, path: concrete(route.path), body: huge }, sums);
    }
  });

  it("nesting 100,000 levels deep is refused with a 400, not a stack overflow", async () => {
    for (const text of [deep(100_000, "[", "]"), `{"serviceId":"${serviceId}","messageId":"d","payload":${deep(100_000, "[", "]")}}`]) {
      for (const route of writes) {
        const res = await send({ method: route.method, path: concrete(route.path), body: text });
        expect(res.status, `${route.method} ${route.path}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${route.method} ${route.path}`).toBeLessThan(500);
      }
    }
    const res = await send({ method: "POST", path: "/api/v1/check", body: `{"serviceId":"${serviceId}","messageId":"d","payload":${deep(100_000, "[", "]")}}` });
    expect(res.body.error.code).toBe("too_deep");
  });

  it("invalid UTF-8 in a body is a 400 naming the problem", async () => {
    const bytes = Buffer.concat([Buffer.from(`{"serviceId":"${serviceId}","messageId":"`), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from(`","payload":{}}`)]);
    const res = await fetch(`${api.url}/api/v1/check`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${api.adminToken}` },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/UTF-8/);
  });

  it("SQL metacharacters and unicode edge cases in a valid message id are stored and read back verbatim", async () => {
    const ids = [...SQL_METAS.filter((s) => s.length > 0), "e\u0301", "\u0041\u030A", "\u202Egnp.exe", "\u200B", "\u{1F600}", "\uFEFFbom", "x".repeat(512)];
    for (const messageId of ids) {
      const res = await api.request("POST", "/api/v1/check", { serviceId, messageId, payload: { messageId } });
      expect(res.status, messageId).toBe(200);
      expect(res.body).toMatchObject({ messageId, decision: "new", version: 1 });
      const read = await api.request("GET", `/api/v1/services/${serviceId}/keys/${encodeSegment(messageId)}`);
      expect(read.status, messageId).toBe(200);
      expect(read.body.state.messageId).toBe(messageId);
      expect(JSON.parse(read.body.versions[0].payload)).toEqual({ messageId });
      const claimed = await api.request("POST", "/api/v1/claim", { consumerGroup: GROUP, messageId });
      expect(claimed.body).toMatchObject({ messageId, decision: "new" });
    }
    const stored = await store.db.execute<{ n: number }>(sql`select count(*)::int as n from last_seen where service_id = ${serviceId}`);
    expect(stored.rows[0]!.n).toBe(ids.length + 1);
    // Composed and decomposed forms are different ids: no normalisation.
    expect((await api.request("POST", "/api/v1/check", { serviceId, messageId: "\u00e9", payload: {} })).body.decision).toBe("new");
  });

  it("NUL, lone surrogates and overlong ids are refused with the field named", async () => {
    for (const messageId of ["a\u0000b", "\uD800", "x\uDFFF", "x".repeat(513), ""]) {
      const res = await api.request("POST", "/api/v1/check", `{"serviceId":"${serviceId}","messageId":${JSON.stringify(messageId)},"payload":{}}`);
      expect(res.status, JSON.stringify(messageId)).toBe(400);
      expect(res.body.error.field).toBe("messageId");
    }
  });
});
