import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { envForFile } from "@/test/env";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

/** Each revert writes an append-only audit row: a token has a budget of them (WEIR_REVERT_LIMIT per 10 min). */
envForFile({ WEIR_REVERT_LIMIT: "3" });
let store: TestDatabase;
let api: TestApi;
let serviceId: string;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  serviceId = await createService(store.db);
});

const scopes = (id: string) => ({ services: [id], consumerGroups: [], idempotencyScopes: [] });

describe("the revert budget", () => {
  it("answers a token's reverts past its budget 429 with Retry-After and writes no audit row for them; another token keeps its own", async () => {
    const loop = api.as(await api.createToken({ name: "check-revert loop", role: "service", ...scopes(serviceId) }));
    const other = api.as(await api.createToken({ name: "other consumer", role: "service", ...scopes(serviceId) }));
    const statuses: number[] = [];
    let refused;
    for (let i = 0; i < 5; i++) {
      const checked = await loop.request("POST", "/api/v1/check", { serviceId, messageId: "loop", payload: { i } });
      const reverted = await loop.request("POST", "/api/v1/check/revert", { serviceId, messageId: "loop", version: checked.body.version });
      statuses.push(reverted.status);
      if (reverted.status === 429) refused = reverted;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refused!.body.error.code).toBe("rate_limited");
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    const rows = await store.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_log where action = 'last_seen.revert' and target = ${`service:${serviceId}`}`);
    expect(rows.rows[0]!.n).toBe(3);

    const checked = await other.request("POST", "/api/v1/check", { serviceId, messageId: "other", payload: 1 });
    expect((await other.request("POST", "/api/v1/check/revert", { serviceId, messageId: "other", version: checked.body.version })).status).toBe(200);
  });
});
