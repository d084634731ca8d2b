import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

describe("services API", () => {
  it("registers, updates and lists a service, auditing each change", async () => {
    const id = uniqueId("svc");
    const created = await api.request("PUT", `/api/v1/services/${id}`, { displayName: "Orders", ignoredPaths: ["/meta/sentAt"], historyDepth: 5 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id, displayName: "Orders", ignoredPaths: ["/meta/sentAt"], historyDepth: 5 });
    const updated = await api.request("PUT", `/api/v1/services/${id}`, { historyDepth: 0 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ displayName: "Orders", ignoredPaths: [], historyDepth: 0 });
    const listed = await api.request("GET", "/api/v1/services");
    expect(listed.body.services.map((s: { id: string }) => s.id)).toContain(id);
    const audit = await store.db.execute<{ action: string }>(sql`select action from audit_log where target = ${`service:${id}`} order by id`);
    expect((audit.rows as { action: string }[]).map((r) => r.action)).toEqual(["service.create", "service.update"]);
  });

  it("writes nothing when a save repeats the stored settings: no audit row, the same updatedAt", async () => {
    const id = uniqueId("svc");
    const settings = { displayName: "Orders", ignoredPaths: ["/meta/sentAt", "/meta/traceId"], historyDepth: 2 };
    const created = await api.request("PUT", `/api/v1/services/${id}`, settings);
    // The same lists in another order are the same settings.
    const again = await api.request("PUT", `/api/v1/services/${id}`, { ...settings, ignoredPaths: ["/meta/traceId", "/meta/sentAt"] });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    const audit = await store.db.execute(sql`select action from audit_log where target = ${`service:${id}`}`);
    expect(audit.rows).toEqual([{ action: "service.create" }]);
  });

  it("hashes only the included paths, and counts each change of the paths as a hash settings version", async () => {
    const id = uniqueId("svc");
    const created = await api.request("PUT", `/api/v1/services/${id}`, { includedPaths: ["/order/total", "/order/id"] });
    expect(created.body).toMatchObject({ includedPaths: ["/order/id", "/order/total"], ignoredPaths: [], hashVersion: 1 });
    const check = (payload: unknown) => api.request("POST", "/api/v1/check", { serviceId: id, messageId: "m-1", payload });
    expect((await check({ order: { id: 1, total: 5, note: "a" } })).body.decision).toBe("new");
    expect((await check({ order: { id: 1, total: 5, note: "b" }, sentAt: "t2" })).body.decision).toBe("duplicate");
    const widened = await api.request("PUT", `/api/v1/services/${id}`, { includedPaths: [] });
    expect(widened.body).toMatchObject({ includedPaths: [], hashVersion: 2 });
    // The key's hash was made under v1: compared under v1, the same order is still a duplicate.
    const replay = await check({ order: { id: 1, total: 5, note: "c" } });
    expect(replay.body).toMatchObject({ decision: "duplicate", version: 1 });
    // The wider settings hash the note, and "c" was never accepted: the key keeps the accepted hash, under v1.
    const detail = await api.request("GET", `/api/v1/services/${id}/keys/m-1`);
    expect(detail.body.state).toMatchObject({ hashVersion: 1, version: 1 });
    expect(detail.body.state).not.toHaveProperty("previousHash");
    expect((await check({ order: { id: 1, total: 5, note: "a" } })).body.decision).toBe("duplicate");
    const bad = await api.request("PUT", `/api/v1/services/${id}`, { includedPaths: ["order"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe("includedPaths[0]");
  });

  it("refuses invalid settings with the field", async () => {
    const id = uniqueId("svc");
    const badPointer = await api.request("PUT", `/api/v1/services/${id}`, { ignoredPaths: ["meta/sentAt"] });
    expect(badPointer.status).toBe(400);
    expect(badPointer.body.error.field).toBe("ignoredPaths[0]");
    const badDepth = await api.request("PUT", `/api/v1/services/${id}`, { historyDepth: 1000 });
    expect(badDepth.status).toBe(400);
    expect(badDepth.body.error.field).toBe("historyDepth");
    expect((await api.request("GET", `/api/v1/services/${id}`)).status).toBe(404);
  });

  it("answers 404 for an unknown service or key", async () => {
    expect((await api.request("GET", "/api/v1/services/unknown-svc")).status).toBe(404);
    const id = uniqueId("svc");
    await api.request("PUT", `/api/v1/services/${id}`, {});
    const key = await api.request("GET", `/api/v1/services/${id}/keys/none`);
    expect(key.status).toBe(404);
    expect(key.body.error.field).toBe("messageId");
  });

  it("serves an OpenAPI 3.1 document built from the request schemas", async () => {
    const doc = await api.request("GET", "/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    const check = doc.body.paths["/api/v1/check"].post;
    const schema = check.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(expect.arrayContaining(["serviceId", "messageId", "payload"]));
    expect(Object.keys(check.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "413", "503"]));
  });

  it("reports the store in /api/health", async () => {
    const health = await api.request("GET", "/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", store: { reachable: true, kind: "postgres" } });
  });

  it("takes the normalisations, answers with them, and explains a payload in its normalised canonical form", async () => {
    const id = uniqueId("svc");
    const created = await api.request("PUT", `/api/v1/services/${id}`, { ignoredPaths: ["/meta/sentAt"] });
    expect(created.body).toMatchObject({ normalise: ["empty_containers", "nulls", "numbers"], hashVersion: 1 });
    const check = (payload: string) => api.request("POST", "/api/v1/check", `{"serviceId":"${id}","messageId":"m-1","payload":${payload}}`);
    expect((await check('{"total":10.50,"meta":{"sentAt":"t1"}}')).body.decision).toBe("new");
    expect((await check('{"total":1050e-2,"note":null}')).body.decision).toBe("duplicate");

    const explained = await api.request("POST", `/api/v1/services/${id}/explain`, { messageId: "m-1", payload: '{"total":10.5e0,"meta":{"sentAt":"t9"}}' });
    expect(explained.status).toBe(200);
    expect(explained.body).toMatchObject({ decision: "duplicate", canonical: '{"total":10.5}', normalise: ["empty_containers", "nulls", "numbers"] });

    const none = await api.request("PUT", `/api/v1/services/${id}`, { ignoredPaths: ["/meta/sentAt"], normalise: [] });
    expect(none.body).toMatchObject({ normalise: [], hashVersion: 2 });
    const plain = await api.request("POST", `/api/v1/services/${id}/explain`, { messageId: "m-2", payload: '{"total":10.50,"meta":{"sentAt":"t9"}}' });
    expect(plain.body).toMatchObject({ decision: "new", canonical: '{"meta":{},"total":10.50}', normalise: [] });
  });

  it("refuses an unknown normalisation and a bad explain body with the field", async () => {
    const id = uniqueId("svc");
    const bad = await api.request("PUT", `/api/v1/services/${id}`, { normalise: ["floats"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toMatch(/^normalise/);
    await api.request("PUT", `/api/v1/services/${id}`, {});
    const explain = await api.request("POST", `/api/v1/services/${id}/explain`, { messageId: "m-1", payload: "{not json" });
    expect(explain.status).toBe(400);
  });
});
