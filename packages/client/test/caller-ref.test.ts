import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createTestToken } from "@/test/token.fixture";
import { createWeirClient, type WeirClient } from "../src/client";

let store: TestDatabase;
let api: TestApi;
let client: WeirClient;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  client = createWeirClient({ baseUrl: api.url, token: await createTestToken(store.db), minDelayMs: 5, maxDelayMs: 50 });
});

afterAll(async () => {
  await store.close();
});

describe("the caller's ref through the typed client", () => {
  it("round-trips in all three modes: sent with the first acceptance, firstRef on every duplicate", async () => {
    const serviceId = uniqueId("svc");
    await client.putService(serviceId, {});
    await client.check({ serviceId, messageId: "o-1", payload: { a: 1 }, ref: "job-1" });
    expect(await client.check({ serviceId, messageId: "o-1", payload: { a: 1 }, ref: "job-2" })).toMatchObject({ decision: "duplicate", firstRef: "job-1" });
    const [batched] = await client.checkBatch([{ serviceId, messageId: "o-1", payload: { a: 1 } }]);
    expect(batched).toMatchObject({ decision: "duplicate", firstRef: "job-1" });

    const consumerGroup = uniqueId("grp");
    await client.claim({ consumerGroup, messageId: "m-1", ref: "req-1" });
    expect(await client.claim({ consumerGroup, messageId: "m-1" })).toMatchObject({ decision: "duplicate", firstRef: "req-1" });

    const scope = uniqueId("scope");
    const started = await client.begin(scope, { key: "k-1", request: { n: 1 }, ref: "worker-1" });
    expect(started.outcome).toBe("started");
    expect(await client.begin(scope, { key: "k-1", request: { n: 1 }, ref: "worker-2" })).toMatchObject({ outcome: "in_progress", firstRef: "worker-1" });
    expect(await client.begin(scope, { key: "k-1", request: { n: 2 } })).toMatchObject({ outcome: "mismatch", firstRef: "worker-1" });
  });
});
