import { beforeAll, describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;
let serviceId: string;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  serviceId = await createService(store.db, { historyDepth: 3, ignoredPaths: ["/meta/at"] });
});

describe("POST /api/v1/check", () => {
  it("answers new, duplicate (any field order) and changed", async () => {
    const first = await api.request("POST", "/api/v1/check", { serviceId, messageId: "B-007", payload: { a: 1, b: [1, 2] } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ serviceId, messageId: "B-007", decision: "new", version: 1 });
    expect(first.body.hash).toMatch(/^[0-9a-f]{64}$/);
    const reordered = `{"payload":{"b":[1,2],"a":1},"messageId":"B-007","serviceId":"${serviceId}"}`;
    const again = await api.request("POST", "/api/v1/check", reordered);
    expect(again.body).toMatchObject({ decision: "duplicate", version: 1, hash: first.body.hash });
    const changed = await api.request("POST", "/api/v1/check", { serviceId, messageId: "B-007", payload: { a: 1, b: [2, 1] } });
    expect(changed.body).toMatchObject({ decision: "changed", version: 2 });
    expect(first.headers.get("x-request-id")).toBeTruthy();
  });

  it("keeps number text exact: 2^53 + 1 is not 2^53", async () => {
    const at = (n: string) => `{"serviceId":"${serviceId}","messageId":"big","payload":{"n":${n}}}`;
    expect((await api.request("POST", "/api/v1/check", at("9007199254740992"))).body.decision).toBe("new");
    expect((await api.request("POST", "/api/v1/check", at("9007199254740993"))).body.decision).toBe("changed");
    expect((await api.request("POST", "/api/v1/check", at("9007199254740993"))).body.decision).toBe("duplicate");
  });

  it("strips ignored paths before hashing and stores the payload text as sent", async () => {
    const send = (at: string) => api.request("POST", "/api/v1/check", { serviceId, messageId: "ign", payload: { v: 1, meta: { at } } });
    expect((await send("t1")).body.decision).toBe("new");
    expect((await send("t2")).body.decision).toBe("duplicate");
    const detail = await api.request("GET", `/api/v1/services/${serviceId}/keys/ign`);
    expect(detail.status).toBe(200);
    expect(detail.body.versions).toEqual([expect.objectContaining({ version: 1, payload: '{"v":1,"meta":{"at":"t1"}}' })]);
  });

  it.each([
    ["malformed JSON", "{", 400, "invalid_json", undefined],
    ["a trailing comma", `{"serviceId":"s","messageId":"m","payload":{"a":1,}}`, 400, "invalid_json", undefined],
    ["no payload", `{"serviceId":"s","messageId":"m"}`, 400, "invalid_request", "payload"],
    ["a numeric messageId", `{"serviceId":"s","messageId":7,"payload":{}}`, 400, "invalid_request", "messageId"],
    ["an empty messageId", `{"serviceId":"s","messageId":"","payload":{}}`, 400, "invalid_request", "messageId"],
    ["a bad serviceId", `{"serviceId":"a b","messageId":"m","payload":{}}`, 400, "invalid_request", "serviceId"],
    ["a NUL in the messageId", `{"serviceId":"s","messageId":"a\\u0000b","payload":{}}`, 400, "invalid_request", "messageId"],
    ["a duplicated payload field", `{"serviceId":"s","messageId":"m","payload":{"a":1,"a":2}}`, 400, "duplicate_field", "payload/a"],
    ["a duplicated envelope field", `{"serviceId":"s","serviceId":"s","messageId":"m","payload":{}}`, 400, "duplicate_field", undefined],
  ])("refuses %s", async (_name, body, status, code, field) => {
    const response = await api.request("POST", "/api/v1/check", body as string);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.message).toEqual(expect.any(String));
    if (field) expect(response.body.error.field).toBe(field);
  });

  it("refuses nesting deeper than 64 with too_deep", async () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    const ok = await api.request("POST", "/api/v1/check", `{"serviceId":"${serviceId}","messageId":"deep","payload":${nested(64)}}`);
    expect(ok.status).toBe(200);
    const deep = await api.request("POST", "/api/v1/check", `{"serviceId":"${serviceId}","messageId":"deep","payload":${nested(65)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe("too_deep");
  });

  it("answers 404 for an unregistered service and writes nothing", async () => {
    const response = await api.request("POST", "/api/v1/check", { serviceId: "not-registered", messageId: "m", payload: {} });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: "not_found", field: "serviceId" });
  });

  it("answers 413 for a body over 1 MiB", async () => {
    const big = JSON.stringify({ serviceId, messageId: "big", payload: { blob: "x".repeat(1024 * 1024) } });
    const response = await api.request("POST", "/api/v1/check", big);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("payload_too_large");
  });

  it("answers 404 for unknown routes and 405 for wrong methods", async () => {
    expect((await api.request("GET", "/api/v1/nothing-here")).status).toBe(404);
    expect((await api.request("GET", "/api/v1/check")).status).toBe(405);
  });
});

describe("POST /api/v1/check/batch", () => {
  it("answers in order, deciding repeated keys in their order", async () => {
    const items = [
      { serviceId, messageId: "b1", payload: { v: 1 } },
      { serviceId, messageId: "b2", payload: { v: 1 } },
      { serviceId, messageId: "b1", payload: { v: 1 } },
      { serviceId, messageId: "b1", payload: { v: 2 } },
      { serviceId, messageId: "b2", payload: { v: 1 } },
    ];
    const response = await api.request("POST", "/api/v1/check/batch", { items });
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: { messageId: string; decision: string }) => `${r.messageId}:${r.decision}`)).toEqual([
      "b1:new",
      "b2:new",
      "b1:duplicate",
      "b1:changed",
      "b2:duplicate",
    ]);
  });

  it("names the offending item's field", async () => {
    const items = [
      { serviceId, messageId: "ok", payload: {} },
      { serviceId, messageId: "", payload: {} },
    ];
    const response = await api.request("POST", "/api/v1/check/batch", { items });
    expect(response.status).toBe(400);
    expect(response.body.error.field).toBe("items[1].messageId");
  });

  it("refuses more than 1000 items and an empty batch", async () => {
    const items = Array.from({ length: 1001 }, (_, i) => ({ serviceId, messageId: `m${i}`, payload: {} }));
    const tooMany = await api.request("POST", "/api/v1/check/batch", { items });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.field).toBe("items");
    expect((await api.request("POST", "/api/v1/check/batch", { items: [] })).status).toBe(400);
  });

  it("decides 1000 distinct keys in one request", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ serviceId, messageId: `k${i}`, payload: { i } }));
    const response = await api.request("POST", "/api/v1/check/batch", { items });
    expect(response.status).toBe(200);
    expect(response.body.results).toHaveLength(1000);
    expect(response.body.results.every((r: { decision: string }) => r.decision === "new")).toBe(true);
  });
});
