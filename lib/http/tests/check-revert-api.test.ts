import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "@/lib/errors";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;
let serviceId: string;
let serviceToken: string;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  serviceId = await createService(store.db, { historyDepth: 2 });
  serviceToken = await api.createToken({ name: "consumer", role: "service", services: [serviceId], consumerGroups: [], idempotencyScopes: [] });
});

const check = (messageId: string, payload: unknown) => api.as(serviceToken).request("POST", "/api/v1/check", { serviceId, messageId, payload });
const revert = (body: unknown) => api.as(serviceToken).request("POST", "/api/v1/check/revert", body);

describe("why a check was a duplicate", () => {
  it("single and batch answers carry the matched version and when it was accepted", async () => {
    const first = await check("why-1", { a: 1 });
    expect(first.body.acceptedAt).toEqual(new Date(first.body.acceptedAt).toISOString());
    const again = await check("why-1", { a: 1 });
    expect(again.body).toMatchObject({ decision: "duplicate", version: 1, acceptedAt: first.body.acceptedAt });
    const batch = await api.as(serviceToken).request("POST", "/api/v1/check/batch", {
      items: [{ serviceId, messageId: "why-1", payload: { a: 1 } }, { serviceId, messageId: "why-2", payload: 1 }, { serviceId, messageId: "why-2", payload: 1 }],
    });
    expect(batch.body.results).toEqual([
      expect.objectContaining({ decision: "duplicate", version: 1, acceptedAt: first.body.acceptedAt }),
      expect.objectContaining({ decision: "new", acceptedAt: expect.any(String) }),
      expect.objectContaining({ decision: "duplicate", acceptedAt: batch.body.results[1].acceptedAt }),
    ]);
  });
});

describe("POST /api/v1/check/revert", () => {
  it("reverts a changed to the previous version, audited as the token; the redelivery is changed again", async () => {
    const a = await check("rv-1", { v: "A" });
    const b = await check("rv-1", { v: "B" });
    const reverted = await revert({ serviceId, messageId: "rv-1", version: b.body.version });
    expect(reverted.status).toBe(200);
    expect(reverted.body).toEqual({ serviceId, messageId: "rv-1", revertedVersion: 2, version: 1, hash: a.body.hash });
    expect((await check("rv-1", { v: "B" })).body).toMatchObject({ decision: "changed", version: 2 });
    const audit = await store.db.execute<{ actor: string; actor_role: string }>(
      sql`select actor, actor_role from audit_log where action = 'last_seen.revert' and target = ${`service:${serviceId}`}`,
    );
    expect(audit.rows).toEqual([{ actor: expect.stringMatching(/^token:tok_/), actor_role: "service" }]);
  });

  it("reverts a new to no state", async () => {
    await check("rv-2", 1);
    expect((await revert({ serviceId, messageId: "rv-2", version: 1 })).body).toMatchObject({ version: null, hash: null });
    const detail = await api.request("GET", `/api/v1/services/${serviceId}/keys/rv-2`);
    expect(detail.status).toBe(404);
    expect((await check("rv-2", 1)).body.decision).toBe("new");
  });

  it("409 with the current version when the key moved on", async () => {
    await check("rv-3", 1);
    await check("rv-3", 2);
    const stale = await revert({ serviceId, messageId: "rv-3", version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "conflict", version: 2, message: expect.stringContaining("version 2") });
  });

  it.each([
    ["no version", { serviceId: "s", messageId: "m" }, "version"],
    ["version 0", { serviceId: "s", messageId: "m", version: 0 }, "version"],
    ["a fractional version", { serviceId: "s", messageId: "m", version: 1.5 }, "version"],
    ["an empty messageId", { serviceId: "s", messageId: "", version: 1 }, "messageId"],
    ["a bad serviceId", { serviceId: "a b", messageId: "m", version: 1 }, "serviceId"],
  ])("400 for %s, naming the field", async (_name, body, field) => {
    const response = await api.request("POST", "/api/v1/check/revert", body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "invalid_request", field });
  });

  it("404 for a key with no state and for an unregistered service; 403 for another service's token", async () => {
    const absent = await revert({ serviceId, messageId: "never-checked", version: 1 });
    expect(absent.status).toBe(404);
    expect(absent.body.error).toMatchObject({ code: "not_found", field: "messageId" });
    const unknown = await api.request("POST", "/api/v1/check/revert", { serviceId: "svc-unknown-x", messageId: "m", version: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "not_found", field: "serviceId" });
    const other = await createService(store.db);
    expect((await revert({ serviceId: other, messageId: "m", version: 1 })).status).toBe(403);
  });

  it("503 when the store cannot be reached", async () => {
    const down = await startTestApi(() => Promise.reject(new StoreUnavailableError(0)));
    const response = await down.request("POST", "/api/v1/check/revert", { serviceId, messageId: "m", version: 1 });
    expect(response.status).toBe(503);
  });

  it("is in the OpenAPI document with its answers", async () => {
    const doc = await api.request("GET", "/api/v1/openapi.json");
    const operation = doc.body.paths["/api/v1/check/revert"].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "409", "503"]));
    const check200 = doc.body.paths["/api/v1/check"].post.responses["200"];
    expect(JSON.stringify(check200)).toContain("acceptedAt");
  });
});
