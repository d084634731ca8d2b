import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const response = (body: string) => ({ status: 200, body });

describe("fencing of complete and release", () => {
  it("refuses a stale holder after a takeover on a real 1 s lock, and keeps the real holder's result", async () => {
    const scope = uniqueId("scope");
    const base = `/api/v1/idempotency/${scope}`;
    expect((await api.request("PUT", `/api/v1/idempotency-scopes/${scope}`, { lockSeconds: 1 })).status).toBe(201);
    const request = { order: 7 };
    const first = await api.request("POST", `${base}/begin`, { key: "k", request });
    expect(first.body).toMatchObject({ outcome: "started", attempt: 1 });
    await sleep(1200);
    const second = await api.request("POST", `${base}/begin`, { key: "k", request });
    expect(second.body).toMatchObject({ outcome: "started", attempt: 2 });

    // The stale holder without its attempt: refused, naming the field; nothing stored.
    const blind = await api.request("POST", `${base}/complete`, { key: "k", request, response: response("stale") });
    expect(blind.status).toBe(400);
    expect(blind.body.error).toMatchObject({ code: "invalid_request", field: "attempt" });
    expect((await api.request("POST", `${base}/release`, { key: "k" })).body.error.field).toBe("attempt");
    // With its own, now stale, attempt: 409 saying who holds the key.
    const stale = await api.request("POST", `${base}/complete`, { key: "k", request, attempt: 1, response: response("stale") });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "conflict", attempt: 2, status: "in_progress" });
    expect((await api.request("POST", `${base}/release`, { key: "k", attempt: 1 })).status).toBe(409);

    const real = await api.request("POST", `${base}/complete`, { key: "k", request, attempt: 2, response: response("real") });
    expect(real.status).toBe(200);
    expect(real.body).toMatchObject({ attempt: 2, alreadyCompleted: false });
    const replay = await api.request("POST", `${base}/begin`, { key: "k", request });
    expect(replay.body).toMatchObject({ outcome: "completed", attempt: 2, response: { body: "real" }, completedAt: real.body.completedAt });
    // The stale holder still cannot overwrite the completed key.
    const late = await api.request("POST", `${base}/complete`, { key: "k", request, attempt: 1, response: response("stale") });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ attempt: 2, status: "completed" });
  });

  it("starts a key over at attempt 1 once its retention has passed", async () => {
    const scope = uniqueId("scope");
    const base = `/api/v1/idempotency/${scope}`;
    for (let round = 1; round <= 2; round++) {
      const begun = await api.request("POST", `${base}/begin`, { key: "k", request: { round } });
      expect(begun.body).toMatchObject({ outcome: "started", attempt: 1 });
      await api.request("POST", `${base}/complete`, { key: "k", request: { round }, attempt: 1, response: response("done") });
      await store.db.execute(sql`update idempotency_keys set expires_at = now() - interval '1 second' where scope = ${scope}`);
    }
  });
});
