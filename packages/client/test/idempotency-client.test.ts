import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createWeirClient, type WeirClient } from "../src/client";
import { createTestToken } from "@/test/token.fixture";

let store: TestDatabase;
let api: TestApi;
let token: string;
let client: WeirClient;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  token = await createTestToken(store.db);
  client = createWeirClient({ baseUrl: api.url, token, timeoutMs: 2000 });
});

const request = { amount: 1 };
const response = { status: 200, body: "paid" };

describe("idempotency keys through the typed client", () => {
  it("sends the attempt its own begin returned, so a holder whose lock was taken over is refused", async () => {
    const scope = uniqueId("scope");
    await client.putScope(scope, { lockSeconds: 1 });
    const holder = createWeirClient({ baseUrl: api.url, token });
    const taker = createWeirClient({ baseUrl: api.url, token });
    expect(await holder.begin(scope, { key: "k", request })).toMatchObject({ outcome: "started", attempt: 1 });
    await store.db.execute(sql`update idempotency_keys set locked_until = now() - interval '1 second' where scope = ${scope}`);
    expect(await taker.begin(scope, { key: "k", request })).toMatchObject({ outcome: "started", attempt: 2 });
    await expect(holder.complete(scope, { key: "k", request, response })).rejects.toMatchObject({ status: 409, code: "conflict" });
    await expect(holder.release(scope, { key: "k" })).rejects.toMatchObject({ status: 409 });
    expect(await taker.complete(scope, { key: "k", request, response })).toMatchObject({ attempt: 2, alreadyCompleted: false });
    expect(await client.getIdempotencyKey(scope, "k")).toMatchObject({ status: "completed", attempt: 2, response: { body: "paid" } });
  });

  it("says what the server says when no begin of the key gave an attempt", async () => {
    const scope = uniqueId("scope");
    await api.request("POST", `/api/v1/idempotency/${scope}/begin`, { key: "k", request });
    await expect(client.complete(scope, { key: "k", request, response })).rejects.toMatchObject({ status: 400, field: "attempt" });
  });

  it("waits for another caller's result with waitSeconds, beyond its own call timeout", async () => {
    const scope = uniqueId("scope");
    const holder = createWeirClient({ baseUrl: api.url, token });
    await holder.begin(scope, { key: "k", request });
    const busy = await client.begin(scope, { key: "k", request });
    expect(busy).toMatchObject({ outcome: "in_progress", attempt: 1, waited: false, retryAfterSeconds: expect.any(Number) });
    const waiting = client.begin(scope, { key: "k", request, waitSeconds: 5 });
    await sleep(2500);
    await holder.complete(scope, { key: "k", request, response });
    expect(await waiting).toMatchObject({ outcome: "completed", attempt: 1, response: { body: "paid" } });
  });

  it("deletes a completed key with a reason", async () => {
    const scope = uniqueId("scope");
    await client.begin(scope, { key: "k", request });
    await client.complete(scope, { key: "k", request, response });
    expect(await client.deleteIdempotencyKey(scope, "k", "refund replay")).toMatchObject({ deleted: true, attempt: 1 });
    await expect(client.getIdempotencyKey(scope, "k")).rejects.toMatchObject({ status: 404 });
  });
});
