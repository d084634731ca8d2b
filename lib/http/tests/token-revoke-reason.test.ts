import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

/** A DELETE as many HTTP clients send one: no body, no content type. */
const bareDelete = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}${path}`, { method: "DELETE", headers: { authorization: `Bearer ${api.adminToken}`, ...headers } });

const newTokenId = async (name: string) => (await api.request("POST", "/api/v1/tokens", { name })).body.details.id as string;

const auditedReason = async (id: string) =>
  ((await store.db.execute(sql`select reason from audit_log where action = 'token.revoke' and target like ${`%${id}%`}`)).rows[0] as { reason: string } | undefined)?.reason;

describe("revoking a token without a body", () => {
  it("takes the reason from ?reason=, audited with it", async () => {
    const id = await newTokenId("revoked by query");
    const response = await bareDelete(`/api/v1/tokens/${id}?reason=${encodeURIComponent("leaked in a CI log")}`);
    expect(response.status).toBe(200);
    expect((await response.json()).token.revokedAt).not.toBeNull();
    expect(await auditedReason(id)).toBe("leaked in a CI log");
  });

  it("takes the reason from an X-Weir-Reason header", async () => {
    const id = await newTokenId("revoked by header");
    expect((await bareDelete(`/api/v1/tokens/${id}`, { "x-weir-reason": "rotated" })).status).toBe(200);
    expect(await auditedReason(id)).toBe("rotated");
  });

  it("prefers the body, and refuses a blank or unstorable reason wherever it comes from, naming the field", async () => {
    const id = await newTokenId("revoked by body");
    for (const path of [`/api/v1/tokens/${id}?reason=%20%20`, `/api/v1/tokens/${id}?reason=a%00b`]) {
      const refused = await bareDelete(path);
      expect(refused.status, path).toBe(400);
      expect((await refused.json()).error).toMatchObject({ code: "invalid_request", field: "reason" });
    }
    expect((await bareDelete(`/api/v1/tokens/${id}`, { "x-weir-reason": " " })).status).toBe(400);
    expect((await api.request("DELETE", `/api/v1/tokens/${id}?reason=query`, { reason: "body" })).status).toBe(200);
    expect(await auditedReason(id)).toBe("body");
  });
});
