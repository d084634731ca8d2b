import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const xmin = async (table: "last_seen" | "window_records" | "idempotency_keys", where: ReturnType<typeof sql>) =>
  ((await store.db.execute<{ xmin: string }>(sql`select xmin::text from ${sql.raw(table)} where ${where}`)).rows[0] as { xmin: string }).xmin;

describe("the caller's ref over HTTP", () => {
  it("last-seen: kept with the accepted version, returned with every duplicate, which still writes nothing", async () => {
    const serviceId = await createService(store.db);
    const check = (payload: unknown, ref?: string) => api.request("POST", "/api/v1/check", { serviceId, messageId: "o-1", payload, ...(ref === undefined ? {} : { ref }) });
    const first = await check({ total: 1 }, "job-41");
    expect(first.body).toMatchObject({ decision: "new" });
    expect(first.body.firstRef).toBeUndefined();
    const before = await xmin("last_seen", sql`service_id = ${serviceId}`);
    const duplicate = await check({ total: 1 }, "job-42");
    expect(duplicate.body).toMatchObject({ decision: "duplicate", version: 1, firstRef: "job-41" });
    expect(await xmin("last_seen", sql`service_id = ${serviceId}`)).toBe(before);

    expect((await check({ total: 2 })).body).toMatchObject({ decision: "changed", version: 2 });
    expect((await check({ total: 2 }, "job-43")).body).toMatchObject({ decision: "duplicate", version: 2, firstRef: null });
    // A revert restores the replaced version's ref with its hash.
    await api.request("POST", "/api/v1/check/revert", { serviceId, messageId: "o-1", version: 2 });
    expect((await check({ total: 1 })).body).toMatchObject({ decision: "duplicate", version: 1, firstRef: "job-41" });

    const batch = await api.request("POST", "/api/v1/check/batch", {
      items: [
        { serviceId, messageId: "o-2", payload: { a: 1 }, ref: "héllo wörld" },
        { serviceId, messageId: "o-2", payload: { a: 1 }, ref: "second" },
      ],
    });
    expect(batch.body.results.map((r: { decision: string; firstRef?: string | null }) => [r.decision, r.firstRef])).toEqual([["new", undefined], ["duplicate", "héllo wörld"]]);
  });

  it("window: kept with the claim that opens the window, returned with every duplicate in it", async () => {
    const consumerGroup = uniqueId("grp");
    const claim = (ref?: string) => api.request("POST", "/api/v1/claim", { consumerGroup, messageId: "m-1", ...(ref === undefined ? {} : { ref }) });
    expect((await claim("req-1")).body).toMatchObject({ decision: "new" });
    const before = await xmin("window_records", sql`consumer_group = ${consumerGroup}`);
    expect((await claim("req-2")).body).toMatchObject({ decision: "duplicate", firstRef: "req-1" });
    expect(await xmin("window_records", sql`consumer_group = ${consumerGroup}`)).toBe(before);
    const batch = await api.request("POST", "/api/v1/claim/batch", { items: [{ consumerGroup, messageId: "m-1" }, { consumerGroup, messageId: "m-2" }] });
    expect(batch.body.results.map((r: { decision: string; firstRef?: string | null }) => [r.decision, r.firstRef])).toEqual([["duplicate", "req-1"], ["new", undefined]]);
    expect((await api.request("POST", "/api/v1/claim", { consumerGroup, messageId: "m-2", ref: "x" })).body).toMatchObject({ firstRef: null });
  });

  it("idempotency keys: kept with the begin that takes the key, returned in progress, completed and mismatched", async () => {
    const scope = uniqueId("scope");
    const begin = (request: unknown, ref?: string) => api.request("POST", `/api/v1/idempotency/${scope}/begin`, { key: "k-1", request, ...(ref === undefined ? {} : { ref }) });
    const started = await begin({ n: 1 }, "order 7 / attempt A");
    expect(started.status).toBe(201);
    const held = await begin({ n: 1 }, "other");
    expect(held.status).toBe(409);
    expect(held.body.error.firstRef).toBe("order 7 / attempt A");
    expect((await begin({ n: 2 }, "other")).body.error).toMatchObject({ code: "mismatch", firstRef: "order 7 / attempt A" });
    await api.request("POST", `/api/v1/idempotency/${scope}/complete`, { key: "k-1", request: { n: 1 }, attempt: started.body.attempt, response: { status: 200, body: "ok" } });
    const before = await xmin("idempotency_keys", sql`scope = ${scope}`);
    const replay = await begin({ n: 1 }, "late retry");
    expect(replay.body).toMatchObject({ outcome: "completed", firstRef: "order 7 / attempt A" });
    expect(await xmin("idempotency_keys", sql`scope = ${scope}`)).toBe(before);
  });

  it("refuses a ref over 256 bytes of UTF-8 with the field and the reason, in every mode", async () => {
    const serviceId = await createService(store.db);
    const long = "é".repeat(129); // 258 bytes, 129 characters
    const answers = [
      await api.request("POST", "/api/v1/check", { serviceId, messageId: "m", payload: 1, ref: long }),
      await api.request("POST", "/api/v1/check/batch", { items: [{ serviceId, messageId: "m", payload: 1, ref: long }] }),
      await api.request("POST", "/api/v1/claim", { consumerGroup: uniqueId("grp"), messageId: "m", ref: long }),
      await api.request("POST", `/api/v1/idempotency/${uniqueId("scope")}/begin`, { key: "k", request: 1, ref: long }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.field).toMatch(/ref$/);
      expect(answer.body.error.message).toMatch(/256 bytes/);
    }
    expect((await api.request("POST", "/api/v1/check", { serviceId, messageId: "m", payload: 1, ref: "x".repeat(256) })).status).toBe(200);
    expect((await api.request("POST", "/api/v1/check", { serviceId, messageId: "m", payload: 1, ref: 7 })).status).toBe(400);
  });

  it("is in the OpenAPI document for every mode", async () => {
    const doc = (await api.request("GET", "/api/v1/openapi.json")).body;
    const text = JSON.stringify(doc);
    expect(text.match(/"firstRef"/g)!.length).toBeGreaterThanOrEqual(5);
    expect(text).toContain("at most 256 bytes of UTF-8");
  });
});
