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

const listServices = (token: string) => fetch(`${api.url}/api/v1/services`, { headers: { authorization: `Bearer ${token}` } });

describe("an expired API token", () => {
  it("is refused with 401 token_expired and the reason, while an unknown one stays a plain 401", async () => {
    const created = await api.request("POST", "/api/v1/tokens", { name: "expires soon", role: "viewer", services: ["*"], expiresInDays: 30 });
    expect(created.status).toBe(201);
    const { token, details } = created.body as { token: string; details: { id: string; expiresAt: string } };
    expect(Date.parse(details.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await listServices(token)).status).toBe(200);

    // Past its expiry (the cache answers for 10 s, so a fresh token that was never looked up stands in for time passing).
    const expired = await api.request("POST", "/api/v1/tokens", { name: "already expired", role: "viewer", services: ["*"], expiresInDays: 1 });
    const expiredId = (expired.body as { details: { id: string } }).details.id;
    await store.db.execute(sql`update api_tokens set expires_at = now() - interval '1 hour' where id = ${expiredId}`);
    const refused = await listServices((expired.body as { token: string }).token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("Bearer");
    const { error } = (await refused.json()) as { error: { code: string; reason: string; message: string; expiredAt: string } };
    expect(error).toMatchObject({ code: "token_expired", reason: "token expired" });
    expect(Date.now() - Date.parse(error.expiredAt)).toBeGreaterThan(59 * 60_000);
    expect(error.message).toContain("token expired");

    const unknown = await listServices(`weir_${"x".repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });
});
