import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { KEY_CHANNEL } from "./notify";

let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const request = { order: 1 };
const stored = { status: 201, body: '{"id":7}', headers: { "content-type": "application/json" } };

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe("begin with waitSeconds", () => {
  it("answers with the stored response as soon as the holder completes", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    const started = await api.request("POST", `${base}/begin`, { key: "k", request });
    const waiting = timed(api.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 10 }));
    await sleep(300);
    await api.request("POST", `${base}/complete`, { key: "k", request, attempt: started.body.attempt, response: stored });
    const { value, ms } = await waiting;
    expect(value.status).toBe(200);
    expect(value.body).toMatchObject({ outcome: "completed", attempt: 1, response: stored });
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(3000);
  });

  it("lets a waiter take the key over when the holder releases it", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    await api.request("POST", `${base}/begin`, { key: "k", request });
    const waiting = timed(api.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 10 }));
    await sleep(200);
    expect((await api.request("POST", `${base}/release`, { key: "k", attempt: 1 })).body.released).toBe(true);
    const { value, ms } = await waiting;
    expect(value.status).toBe(201);
    expect(value.body).toMatchObject({ outcome: "started", attempt: 2 });
    expect(ms).toBeLessThan(3000);
  });

  it("answers 409 in_progress, marked as waited, when the wait ends first", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    await api.request("POST", `${base}/begin`, { key: "k", request });
    const { value, ms } = await timed(api.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 1 }));
    expect(value.status).toBe(409);
    expect(value.body.error).toMatchObject({ code: "in_progress", attempt: 1, waited: true });
    expect(Number(value.headers.get("retry-after"))).toBeGreaterThan(80);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2500);
  });

  it("misses no completion that races the waiter's subscription", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    const keys = Array.from({ length: 20 }, (_, i) => `race-${i}`);
    await Promise.all(keys.map((key) => api.request("POST", `${base}/begin`, { key, request })));
    const answers = await Promise.all(
      keys.map(async (key, i) => {
        const waiter = timed(api.request("POST", `${base}/begin`, { key, request, waitSeconds: 20 }));
        await sleep(i % 5 * 3);
        await api.request("POST", `${base}/complete`, { key, request, attempt: 1, response: stored });
        return waiter;
      }),
    );
    for (const { value, ms } of answers) {
      expect(value.body.outcome, JSON.stringify(value.body)).toBe("completed");
      expect(ms).toBeLessThan(8000);
    }
  });

  it("refuses more than 30 seconds with a 400 naming waitSeconds", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    const tooLong = await api.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 31 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.field).toBe("waitSeconds");
  });

  it("sends a NOTIFY only for a key someone waits for", async () => {
    const listener = new pg.Client({ connectionString: store.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => heard.push(message.payload ?? ""));
    await listener.query(`listen ${KEY_CHANNEL}`);
    try {
      const scope = uniqueId("scope");
      const base = `/api/v1/idempotency/${scope}`;
      await api.request("POST", `${base}/begin`, { key: "plain", request });
      await api.request("POST", `${base}/complete`, { key: "plain", request, attempt: 1, response: stored });
      await api.request("POST", `${base}/begin`, { key: "awaited", request });
      const waiter = api.request("POST", `${base}/begin`, { key: "awaited", request, waitSeconds: 10 });
      await sleep(300);
      await api.request("POST", `${base}/complete`, { key: "awaited", request, attempt: 1, response: stored });
      expect((await waiter).status).toBe(200);
      await sleep(100);
      expect(heard).toEqual([JSON.stringify([scope, "awaited"])]);
    } finally {
      await listener.end();
    }
  });
});

describe("the bound on waiters per node", () => {
  let small: TestDatabase;
  let smallApi: TestApi;
  const previous = process.env.WEIR_IDEMPOTENCY_MAX_WAITERS;

  beforeAll(async () => {
    process.env.WEIR_IDEMPOTENCY_MAX_WAITERS = "2";
    small = await createTestDatabase();
    smallApi = await startTestApi(async () => small);
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.WEIR_IDEMPOTENCY_MAX_WAITERS;
    else process.env.WEIR_IDEMPOTENCY_MAX_WAITERS = previous;
  });

  it("answers 409 at once past the maximum, and still wakes the waiters it holds", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    await smallApi.request("POST", `${base}/begin`, { key: "k", request });
    const held = [1, 2].map(() => smallApi.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 10 }));
    await sleep(300);
    const refused = await timed(smallApi.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 10 }));
    expect(refused.value.status).toBe(409);
    expect(refused.value.body.error.waited).toBe(false);
    expect(refused.ms).toBeLessThan(1000);
    await smallApi.request("POST", `${base}/complete`, { key: "k", request, attempt: 1, response: stored });
    for (const answer of await Promise.all(held)) expect(answer.body).toMatchObject({ outcome: "completed", response: stored });
  });

  it("gives a waiter's slot back when its caller hangs up", async () => {
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    await smallApi.request("POST", `${base}/begin`, { key: "k", request });
    const hangUp = new AbortController();
    const headers = { "content-type": "application/json", authorization: `Bearer ${smallApi.adminToken}` };
    const body = JSON.stringify({ key: "k", request, waitSeconds: 20 });
    const gone = [1, 2].map(() => fetch(`${smallApi.url}${base}/begin`, { method: "POST", headers, body, signal: hangUp.signal }).catch(() => "aborted"));
    await sleep(300);
    hangUp.abort();
    expect(await Promise.all(gone)).toEqual(["aborted", "aborted"]);
    await sleep(200);
    const waiter = timed(smallApi.request("POST", `${base}/begin`, { key: "k", request, waitSeconds: 1 }));
    const { value, ms } = await waiter;
    expect(value.body.error).toMatchObject({ code: "in_progress", waited: true });
    expect(ms).toBeGreaterThanOrEqual(950);
  });
});
