import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedInUser } from "@/test/auth-fixtures";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const raw = (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${api.url}${path}`, { method, body: init.body, headers: { authorization: `Bearer ${api.adminToken}`, ...init.headers } });

describe("request bodies", () => {
  it("answers 415 to a body that is not declared as JSON, before reading it", async () => {
    const service = await createService(store.db);
    const body = JSON.stringify({ serviceId: service, messageId: "m-415", payload: { a: 1 } });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx", "multipart/form-data; boundary=x"]) {
      const response = await raw("POST", "/api/v1/check", { body, headers: { "content-type": type } });
      expect(response.status, type).toBe(415);
      expect((await response.json()).error.field).toBe("content-type");
    }
    const untyped = await fetch(`${api.url}/api/v1/check`, { method: "POST", body: new Blob([body]), headers: { authorization: `Bearer ${api.adminToken}` } });
    expect(untyped.status).toBe(415);
    const json = await raw("POST", "/api/v1/check", { body, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(json.status).toBe(200);
    expect((await json.json()).decision).toBe("new");
  });

  it("needs no content type where there is no body", async () => {
    expect((await raw("GET", "/api/v1/services")).status).toBe(200);
    const created = await api.request("POST", "/api/v1/tokens", { name: "to revoke without a body" });
    // A revoke needs a reason: without a body it is refused for that field, not for the missing content type.
    const bare = await raw("DELETE", `/api/v1/tokens/${created.body.details.id}`);
    expect(bare.status).toBe(400);
    expect((await bare.json()).error).toMatchObject({ code: "invalid_request", field: "reason" });
    expect((await raw("POST", "/api/v1/cleanup")).status).toBe(200);
  });
});

describe("the destructive guard on token revoke and service settings", () => {
  const saved = process.env.WEIR_DESTRUCTIVE_LIMIT;
  afterEach(() => {
    if (saved === undefined) delete process.env.WEIR_DESTRUCTIVE_LIMIT;
    else process.env.WEIR_DESTRUCTIVE_LIMIT = saved;
  });

  it("asks a console session for a recent sign-in before revoking a token or changing a service", async () => {
    const admin = await signedInUser(store.db, "admin");
    await store.db.execute(sql`update auth_sessions s set created_at = now() - interval '16 minutes' from auth_users u where u.id = s.user_id and u.email = ${admin.email}`);
    const stale = api.as({ headers: { cookie: admin.cookie, origin: api.url } });
    const service = await createService(store.db);
    const put = await stale.request("PUT", `/api/v1/services/${service}`, { ignoredPaths: ["/meta"] });
    expect(put.status).toBe(403);
    expect(put.body.error.code).toBe("reauth_required");
    const token = await api.request("POST", "/api/v1/tokens", { name: "kept" });
    const revoke = await stale.request("DELETE", `/api/v1/tokens/${token.body.details.id}`, { reason: "stale session" });
    expect(revoke.body.error.code).toBe("reauth_required");
    expect((await api.request("GET", "/api/v1/tokens")).body.tokens.map((t: { name: string }) => t.name)).toContain("kept");
  });

  it("counts them against the destructive-operation limit, whatever the door", async () => {
    const victim = await api.request("POST", "/api/v1/tokens", { name: "victim" });
    const caller = api.as(await api.createToken({ name: "busy admin", role: "admin", services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] }));
    const service = await createService(store.db);
    process.env.WEIR_DESTRUCTIVE_LIMIT = "2";
    const statuses = [];
    for (let depth = 1; depth <= 3; depth++) statuses.push((await caller.request("PUT", `/api/v1/services/${service}`, { historyDepth: depth })).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await caller.request("DELETE", `/api/v1/tokens/${victim.body.details.id}`, { reason: "over the limit" })).status).toBe(429);
    // The refused change did not happen.
    expect((await caller.request("GET", `/api/v1/services/${service}`)).body.historyDepth).toBe(2);
  });

  it("spends nothing on registering services or saving the settings a service has", async () => {
    const provisioner = api.as(await api.createToken({ name: "provisioning script", role: "admin", services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] }));
    process.env.WEIR_DESTRUCTIVE_LIMIT = "1";
    const ids = Array.from({ length: 4 }, (_, i) => `provisioned-${i}-${Date.now()}`);
    const settings = { ignoredPaths: ["/sentAt"], historyDepth: 3 };
    for (const [run, status] of [["registered", 201], ["saved again", 200]] as const) {
      for (const id of ids) expect((await provisioner.request("PUT", `/api/v1/services/${id}`, settings)).status, `${run}: ${id}`).toBe(status);
    }
    // A display name alone changes no decision either.
    expect((await provisioner.request("PUT", `/api/v1/services/${ids[0]}`, { ...settings, displayName: "Payouts" })).status).toBe(200);
    // The budget is whole: one change passes, the next is refused.
    expect((await provisioner.request("PUT", `/api/v1/services/${ids[0]}`, { ignoredPaths: [], historyDepth: 3 })).status).toBe(200);
    expect((await provisioner.request("PUT", `/api/v1/services/${ids[1]}`, { ignoredPaths: [], historyDepth: 3 })).status).toBe(429);
  });
});
