import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

describe("a token's own limits", () => {
  it("are set at creation, shown in the list and audited; absent, they are null (the defaults)", async () => {
    const created = await api.request("POST", "/api/v1/tokens", { name: "replay job", services: ["*"], maxInFlight: 32, requestsPerSecond: 200 });
    expect(created.status).toBe(201);
    expect(created.body.details).toMatchObject({ maxInFlight: 32, requestsPerSecond: 200 });
    const plain = await api.request("POST", "/api/v1/tokens", { name: "plain", services: ["*"] });
    expect(plain.body.details).toMatchObject({ maxInFlight: null, requestsPerSecond: null });
    const listed = (await api.request("GET", "/api/v1/tokens")).body.tokens as { id: string; maxInFlight: number | null; requestsPerSecond: number | null }[];
    expect(listed.find((t) => t.id === created.body.details.id)).toMatchObject({ maxInFlight: 32, requestsPerSecond: 200 });
    const audit = await store.pool!.query("select details from audit_log where action = 'token.create' and target = $1", [`token:${created.body.details.id}`]);
    expect(audit.rows[0].details).toMatchObject({ maxInFlight: 32, requestsPerSecond: 200 });
  });

  it.each([
    ["maxInFlight", 0],
    ["maxInFlight", 1.5],
    ["requestsPerSecond", -1],
    ["requestsPerSecond", "10"],
  ])("refuses %s = %j with a 400 naming the field", async (field, value) => {
    const refused = await api.request("POST", "/api/v1/tokens", { name: "bad", services: ["*"], [field]: value });
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe(field);
  });

  it("lists the limits in the OpenAPI document", async () => {
    const doc = (await api.request("GET", "/api/v1/openapi.json")).body;
    const text = JSON.stringify(doc);
    expect(text).toContain("requestsPerSecond");
    expect(text).toContain("maxInFlight");
  });
});
