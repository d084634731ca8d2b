import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool, type Store } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import * as schema from "@/db/schema";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService } from "@/test/factories";
import { TcpProxy } from "@/test/tcp-proxy";
import { createTestDatabase } from "@/test/test-db";

const proxy = new TcpProxy();
let api: TestApi;
let store: Store;
let serviceId: string;

beforeAll(async () => {
  const direct = await createTestDatabase();
  serviceId = await createService(direct.db);
  await proxy.start();
  const pool = createPool({ ...storeConfigFromEnv(), connectTimeoutMs: 500, statementTimeoutMs: 2000 }, proxy.url(direct.name));
  store = { db: drizzle({ client: pool, schema }), kind: "postgres", pool, ping: async () => void (await pool.query("select 1")), close: () => pool.end() };
  api = await startTestApi(async () => store);
});
afterAll(async () => {
  await store.close().catch(() => undefined);
  await proxy.cut();
});

const check = (messageId: string) => api.request("POST", "/api/v1/check", { serviceId, messageId, payload: { v: 1 } });

describe("when the store goes down", () => {
  it("answers 503 with Retry-After, never a decision, and recovers without a restart", async () => {
    expect((await check("before")).body.decision).toBe("new");

    await proxy.cut();
    const down = await check("during");
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    expect(down.body.error.code).toBe("store_unavailable");
    expect(down.body).not.toHaveProperty("decision");
    const batch = await api.request("POST", "/api/v1/check/batch", { items: [{ serviceId, messageId: "during", payload: {} }] });
    expect(batch.status).toBe(503);
    const health = await api.request("GET", "/api/health");
    expect(health.status).toBe(503);
    expect(health.body.store.reachable).toBe(false);
    // Public: no driver message, host or port.
    expect(health.body.store.error).toBe("unreachable");
    expect(JSON.stringify(health.body)).not.toMatch(/ECONN|127\.0\.0\.1|\d{4,5}/);

    await proxy.start();
    await expect.poll(async () => (await check("during")).status, { timeout: 10_000 }).toBe(200);
    expect((await check("before")).body.decision).toBe("duplicate");
  });

  it("answers 503 when the store stalls, within the statement timeout", async () => {
    expect((await check("stall-warmup")).status).toBe(200);
    proxy.stall(true);
    const started = Date.now();
    const stalled = await check("stalled");
    proxy.stall(false);
    expect(stalled.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
