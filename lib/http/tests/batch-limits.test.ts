import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_DEPTH } from "@/lib/dedup/canonical/json-scanner";
import { MAX_JSON_DEPTH } from "@/lib/validation/check";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const checks = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ serviceId: "svc", messageId: `m-${i}`, payload: i })) });
const claims = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ consumerGroup: "grp", messageId: `m-${i}` })) });

describe("limits answer in one shape", () => {
  it("refuses 1001 items, and none, the same way for the check batch and the claim batch", async () => {
    for (const n of [1001, 0]) {
      const check = await api.request("POST", "/api/v1/check/batch", checks(n));
      const claim = await api.request("POST", "/api/v1/claim/batch", claims(n));
      expect(check.status).toBe(400);
      expect(claim.status).toBe(400);
      expect(claim.body).toEqual(check.body);
      expect(check.body.error.field).toBe("items");
    }
    expect((await api.request("POST", "/api/v1/claim/batch", claims(1001))).body.error.message).toBe("items: at most 1000 items per batch");
  });

  it("documents the nesting limit of 64 and enforces it", async () => {
    expect(MAX_JSON_DEPTH).toBe(DEFAULT_MAX_DEPTH);
    const doc = JSON.stringify((await api.request("GET", "/api/v1/openapi.json")).body);
    expect(doc.match(/Nested at most 64 levels deep/g)?.length).toBeGreaterThanOrEqual(2);
    const serviceId = await createService(store.db);
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    const ok = await api.request("POST", "/api/v1/check", `{"serviceId":"${serviceId}","messageId":"deep","payload":${nested(63)}}`);
    expect(ok.status).toBe(200);
    const deep = await api.request("POST", "/api/v1/check", `{"serviceId":"${serviceId}","messageId":"deep","payload":${nested(65)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe("too_deep");
    const key = await api.request("POST", `/api/v1/idempotency/${uniqueId("scope")}/begin`, `{"key":"k","request":${nested(65)}}`);
    expect(key.status).toBe(400);
    expect(key.body.error.code).toBe("too_deep");
  });
});
