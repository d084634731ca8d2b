import { drizzle } from "drizzle-orm/node-postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import * as schema from "@/db/schema";
import { check } from "@/lib/dedup/last-seen/check";
import { claim } from "@/lib/dedup/window/claim";
import { JournalBuffer } from "@/lib/journal/buffer";
import { nowMicros } from "@/lib/journal/clock";
import { journal } from "@/lib/journal/index";
import { JournalWriter } from "@/lib/journal/writer";
import { encodeJournalCursor } from "@/lib/validation/journal";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { TcpProxy } from "@/test/tcp-proxy";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;
const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const around = () => `from=${iso(Date.now() - HOUR_MS)}&to=${iso(Date.now() + HOUR_MS)}`;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

/** Every entry of a range, following nextCursor page by page. */
async function allPages(path: string, limit: number): Promise<{ entries: { atUs: number; key: string; decision: string }[]; pages: number }> {
  const entries = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await api.request("GET", `${path}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...page.body.entries);
    cursor = page.body.nextCursor;
    pages++;
  } while (cursor !== null);
  return { entries, pages };
}

describe("a key's decisions", () => {
  it("answers newest first with the caller, request id and µs time, and pages back with nextBefore", async () => {
    const serviceId = await createService(store.db);
    for (const [payload, requestId] of [[1, "req-a"], [1, "req-b"], [2, "req-c"]] as const) {
      const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "O-123", payload }, { "x-request-id": requestId });
      expect(sent.status).toBe(200);
    }
    await journal.flush(store.db);

    const timeline = await api.request("GET", `/api/v1/journal/last_seen/${serviceId}/keys/O-123`);
    expect(timeline.status).toBe(200);
    expect(timeline.body).toMatchObject({ mode: "last_seen", subject: serviceId, key: "O-123", nextBefore: null });
    const entries = timeline.body.entries;
    expect(entries.map((e: { decision: string }) => e.decision)).toEqual(["changed", "duplicate", "new"]);
    expect(entries.map((e: { requestId: string }) => e.requestId)).toEqual(["req-c", "req-b", "req-a"]);
    expect(entries[1]).toMatchObject({ version: 1, caller: expect.stringMatching(/^token:/), hashVersion: 1 });
    expect(entries[0].at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Math.floor(entries[0].atUs / 1000)).toBe(new Date(entries[0].at).getTime());

    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page = await api.request("GET", `/api/v1/journal/last_seen/${serviceId}/keys/O-123?limit=1${before ? `&before=${before}` : ""}`);
      expect(page.body.entries).toHaveLength(1);
      seen.push(page.body.entries[0].requestId);
      before = page.body.nextBefore;
    } while (before !== null);
    expect(seen).toEqual(["req-c", "req-b", "req-a"]);
  });

  it("reads keys with slashes and SQL metacharacters as sent", async () => {
    const serviceId = await createService(store.db);
    const key = "a/b' OR '1'='1";
    await check(store.db, { serviceId, messageId: key, payload: 1 });
    await journal.flush(store.db);
    const timeline = await api.request("GET", `/api/v1/journal/last_seen/${serviceId}/keys/${encodeURIComponent(key)}`);
    expect(timeline.body.entries).toMatchObject([{ key, decision: "new" }]);
  });
});

describe("a subject's decisions in a time range", () => {
  let serviceId: string;
  let path: string;

  beforeAll(async () => {
    serviceId = await createService(store.db);
    // 3 keys x 9 answers from two callers: per key 1 new, 2 changed, 6 duplicates (3 from each caller).
    for (let i = 0; i < 9; i++) {
      for (const key of ["K-1", "K-2", "K-3"]) {
        await check(store.db, { serviceId, messageId: key, payload: Math.floor(i / 3), origin: { caller: i % 2 === 0 ? "producer-even" : "producer-odd" } });
      }
    }
    const other = await createService(store.db);
    await check(store.db, { serviceId: other, messageId: "K-1", payload: 1 });
    await journal.flush(store.db);
    path = `/api/v1/journal/last_seen/${serviceId}?${around()}`;
  });

  it("returns every entry exactly once across pages, oldest first, whatever the page size", async () => {
    const whole = await api.request("GET", `${path}&limit=1000`);
    expect(whole.body.entries).toHaveLength(27);
    expect(whole.body.nextCursor).toBeNull();
    const positions = (entries: { atUs: number; key: string }[]) => entries.map((e) => `${e.atUs}/${e.key}`);
    for (const limit of [1, 4, 26, 27]) {
      const paged = await allPages(path, limit);
      expect(paged.pages, `limit ${limit}`).toBe(Math.ceil(27 / limit));
      expect(positions(paged.entries)).toEqual(positions(whole.body.entries));
    }
    const times = whole.body.entries.map((e: { atUs: number }) => e.atUs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(whole.body.entries.map((e: { subject: string }) => e.subject))).toEqual(new Set([serviceId]));
  });

  it("filters by one or several decisions, by caller and by key", async () => {
    const decisions = async (query: string) =>
      (await api.request("GET", `${path}&limit=1000&${query}`)).body.entries.map((e: { decision: string }) => e.decision);
    expect(await decisions("decision=duplicate")).toEqual(Array(18).fill("duplicate"));
    expect((await decisions("decision=new&decision=changed")).sort()).toEqual([...Array(6).fill("changed"), ...Array(3).fill("new")]);
    expect((await decisions("decision=new,changed")).length).toBe(9);
    const odd = await api.request("GET", `${path}&limit=1000&caller=producer-odd&decision=duplicate`);
    expect(odd.body.entries.length).toBe(9);
    expect(odd.body.entries.every((e: { caller: string }) => e.caller === "producer-odd")).toBe(true);
    const one = await api.request("GET", `${path}&limit=1000&key=K-2`);
    expect(one.body.entries.map((e: { key: string }) => e.key)).toEqual(Array(9).fill("K-2"));
    const paged = await allPages(`${path}&decision=duplicate&caller=producer-even`, 2);
    expect(paged.entries).toHaveLength(9);
  });

  it("bounds the range at microseconds: from an entry's `at` includes it, to it excludes it", async () => {
    const [first, second] = (await api.request("GET", `${path}&limit=2`)).body.entries;
    const from = await api.request("GET", `/api/v1/journal/last_seen/${serviceId}?from=${second.at}&to=${iso(Date.now() + HOUR_MS)}&limit=1`);
    expect(from.body.entries[0]).toMatchObject({ atUs: second.atUs, key: second.key });
    const to = await api.request("GET", `/api/v1/journal/last_seen/${serviceId}?from=${first.at}&to=${second.at}`);
    expect(to.body.entries.map((e: { atUs: number }) => e.atUs)).toEqual([first.atUs]);
    expect(to.body).toMatchObject({ from: first.at, to: second.at });
  });

  it("names the minutes of the range in which entries were dropped", async () => {
    const gappy = await createService(store.db);
    const small = new JournalWriter(new JournalBuffer(2), { batchEntries: 100, retentionMs: 7 * 86_400_000 });
    const at = nowMicros();
    for (let i = 0; i < 5; i++) {
      small.buffer.push({ atUs: at + i, mode: "last_seen", subject: gappy, key: `G-${i}`, decision: "duplicate", version: 1, matchedAt: null, hashVersion: 1, caller: null, requestId: null, traceId: null });
    }
    await small.flush(store.db);
    const page = await api.request("GET", `/api/v1/journal/last_seen/${gappy}?${around()}`);
    expect(page.body.entries).toHaveLength(2);
    expect(page.body.gaps).toEqual([{ minute: expect.any(String), dropped: 3 }]);
    expect(new Date(page.body.gaps[0].minute).getTime()).toBe(Math.floor(at / 60_000_000) * 60_000);
    expect((await api.request("GET", path)).body.gaps).toEqual([]);
  });

  it("answers bad input with a 400 naming the field, and reads nothing", async () => {
    const base = `/api/v1/journal/last_seen/${serviceId}`;
    const now = Date.now();
    const range = `from=${iso(now - HOUR_MS)}&to=${iso(now)}`;
    const cases: [string, string][] = [
      [`/api/v1/journal/last-seen/${serviceId}?${range}`, "mode"],
      [`/api/v1/journal/last_seen/bad%20id?${range}`, "subject"],
      [`${base}?to=${iso(now)}`, "from"],
      [`${base}?from=${iso(now)}`, "to"],
      [`${base}?from=yesterday&to=${iso(now)}`, "from"],
      [`${base}?from=2026-02-30T00:00Z&to=2026-03-02T00:00Z`, "from"],
      [`${base}?from=${iso(now)}&to=${iso(now - HOUR_MS)}`, "to"],
      [`${base}?from=${iso(now)}&to=${iso(now)}`, "to"],
      [`${base}?from=${iso(now - 40 * 86_400_000)}&to=${iso(now)}`, "to"],
      [`${base}?${range}&cursor=not-a-cursor`, "cursor"],
      [`${base}?${range}&cursor=${Buffer.from('[1,"K"]x').toString("base64url")}`, "cursor"],
      [`${base}?${range}&cursor=${encodeJournalCursor({ atUs: (now - 2 * HOUR_MS) * 1000, key: "K-1" })}`, "cursor"],
      [`${base}?${range}&cursor=${encodeJournalCursor({ atUs: now * 1000 - 1, key: "a\u0000b" })}`, "cursor"],
      [`${base}?${range}&decision=duplicate&decision=late`, "decision"],
      [`${base}?${range}&caller=a%00b`, "caller"],
      [`${base}?${range}&key=a%00b`, "key"],
      [`${base}?${range}&limit=0`, "limit"],
      [`${base}?${range}&limit=1001`, "limit"],
      [`${base}?${range}&limit=ten`, "limit"],
      [`${base}/keys/a%00b`, "key"],
      [`${base}/keys/K-1?before=zzz`, "before"],
      [`${base}/keys/K-1?limit=5000`, "limit"],
      [`/api/v1/journal/lastseen/${serviceId}/level`, "mode"],
    ];
    for (const [url, field] of cases) {
      const res = await api.request("GET", url);
      expect(res.status, `${url} -> ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.field, url).toBe(field);
    }
    const wrongKind = await api.request("GET", `${base}?${range}&decision=late`);
    expect(wrongKind.body.error.message).toContain("new, changed, duplicate, reverted");
  });
});

describe("who may read and switch a subject's journal", () => {
  it("lets a scoped token read only its own subjects, with 403 before anything is read", async () => {
    const own = await createService(store.db);
    const foreign = await createService(store.db);
    const group = uniqueId("grp");
    await check(store.db, { serviceId: foreign, messageId: "F-1", payload: 1 });
    await claim(store.db, { consumerGroup: group, messageId: "C-1" });
    await journal.flush(store.db);
    const token = await api.createToken({ name: "scoped", role: "service", services: [own], consumerGroups: [uniqueId("grp")] });
    const scoped = api.as(token);
    const range = around();
    expect((await scoped.request("GET", `/api/v1/journal/last_seen/${own}?${range}`)).status).toBe(200);
    for (const path of [
      `/api/v1/journal/last_seen/${foreign}?${range}`,
      `/api/v1/journal/last_seen/${foreign}/keys/F-1`,
      `/api/v1/journal/last_seen/${foreign}/level`,
      `/api/v1/journal/window/${group}?${range}`,
      `/api/v1/journal/window/${group}/keys/C-1`,
      // A service id the token holds, asked for as a group of the same name: another subject.
      `/api/v1/journal/window/${own}?${range}`,
    ]) {
      const res = await scoped.request("GET", path);
      expect(res.status, path).toBe(403);
      expect(JSON.stringify(res.body), path).not.toContain("F-1");
    }
    expect((await api.request("GET", `/api/v1/journal/window/${group}/keys/C-1`)).body.entries).toMatchObject([{ decision: "new" }]);
  });

  it("shows and sets the level: operate needed, audited once, 400 for a level it does not know", async () => {
    const serviceId = await createService(store.db);
    const url = `/api/v1/journal/last_seen/${serviceId}/level`;
    expect((await api.request("GET", url)).body).toEqual({ mode: "last_seen", kind: "service", subject: serviceId, level: "all" });

    const viewer = await api.createToken({ name: "viewer", role: "viewer", services: ["*"] });
    const service = await api.createToken({ name: "svc", role: "service", services: [serviceId] });
    const otherOperator = await api.createToken({ name: "op", role: "operator", services: [uniqueId("svc")] });
    for (const caller of [viewer, service, otherOperator]) {
      expect((await api.as(caller).request("PUT", url, { level: "off" })).status).toBe(403);
    }
    expect((await api.as(viewer).request("GET", url)).status).toBe(200);

    const set = await api.request("PUT", url, { level: "changes_and_duplicates", reason: "new keys are noise" });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ mode: "last_seen", kind: "service", subject: serviceId, level: "changes_and_duplicates", previous: "all", changed: true });
    expect((await api.request("PUT", url, { level: "changes_and_duplicates" })).body.changed).toBe(false);
    expect((await api.request("GET", url)).body.level).toBe("changes_and_duplicates");
    const audited = await store.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'journal.level' and target = ${`service:${serviceId}`} and reason = 'new keys are noise'`,
    );
    expect(audited.rows[0]!.n).toBe(1);

    const bad = await api.request("PUT", url, { level: "some" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("level");
    const nul = await api.request("PUT", url, { level: "off", reason: "a\u0000b" });
    expect(nul.body.error.field).toBe("reason");
  });
});

describe("the OpenAPI document", () => {
  it("lists the journal's routes with their response schemas", async () => {
    const doc = (await api.request("GET", "/api/v1/openapi.json")).body;
    const range = doc.paths["/api/v1/journal/{mode}/{subject}"].get;
    expect(range.parameters.map((p: { name: string }) => p.name)).toEqual(["mode", "subject"]);
    expect(Object.keys(range.responses["200"].content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["entries", "nextCursor", "gaps"]),
    );
    expect(doc.paths["/api/v1/journal/{mode}/{subject}/keys/{key}"].get.summary).toContain("newest first");
    expect(Object.keys(doc.paths["/api/v1/journal/{mode}/{subject}/level"]).sort()).toEqual(["get", "put"]);
    expect(doc.paths["/api/v1/journal/{mode}/{subject}/level"].put.requestBody.content["application/json"].schema.required).toEqual(["level"]);
  });
});

describe("when the store is down", () => {
  const proxy = new TcpProxy();
  let down: Store;
  afterAll(async () => {
    await down?.close().catch(() => undefined);
    await proxy.cut();
  });

  it("answers 503, never an empty page", async () => {
    await proxy.start();
    const pool = createPool({ ...storeConfigFromEnv(), connectTimeoutMs: 500, statementTimeoutMs: 2000 }, proxy.url(store.name));
    down = { db: drizzle({ client: pool, schema }), kind: "postgres", pool, ping: async () => void (await pool.query("select 1")), close: () => pool.end() };
    const proxied = await startTestApi(async () => down);
    const serviceId = await createService(store.db);
    const path = `/api/v1/journal/last_seen/${serviceId}?${around()}`;
    // The first call caches the token, so the next one reaches the journal read itself.
    expect((await proxied.request("GET", path)).status).toBe(200);
    await proxy.cut();
    for (const url of [path, `/api/v1/journal/last_seen/${serviceId}/keys/K-1`, `/api/v1/journal/last_seen/${serviceId}/level`]) {
      const res = await proxied.request("GET", url);
      expect(res.status, url).toBe(503);
      expect(res.body.error.code).toBe("store_unavailable");
    }
  });
});
