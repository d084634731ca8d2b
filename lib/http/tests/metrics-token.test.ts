import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "@/lib/errors";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;
let storeDown = false;
let serviceId: string;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => {
    if (storeDown) throw new StoreUnavailableError();
    return store;
  });
  serviceId = await createService(store.db);
});
afterEach(() => {
  delete process.env.WEIR_METRICS_TOKEN;
  storeDown = false;
});

const scrape = (headers: Record<string, string> = {}) => api.as(null).request("GET", "/api/metrics", undefined, headers);

describe("/api/metrics", () => {
  it("is open without WEIR_METRICS_TOKEN, and then names the ids it has seen", async () => {
    await api.request("POST", "/api/v1/check", { serviceId, messageId: "m-1", payload: { v: 1 } });
    const open = await scrape();
    expect(open.status).toBe(200);
    expect(open.body).toContain(`service="${serviceId}"`);
  });

  it("needs Authorization: Bearer <WEIR_METRICS_TOKEN> when it is set, checked without the store", async () => {
    process.env.WEIR_METRICS_TOKEN = "scrape-secret-0123456789";
    for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: `Bearer ${api.adminToken}` }] as Record<string, string>[]) {
      const refused = await scrape(headers);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe("unauthorized");
    }
    const scraped = await scrape({ authorization: "Bearer scrape-secret-0123456789" });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain("weir_store_up");
    storeDown = true;
    expect((await scrape({ authorization: "Bearer scrape-secret-0123456789" })).status).toBe(200);
    expect((await scrape()).status).toBe(401);
  });
});
