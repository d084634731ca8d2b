import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { envForFile } from "@/test/env";
import { uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

/** 40 waiters on the node: one credential may hold a quarter of them (10), the others keep theirs. */
envForFile({ WEIR_IDEMPOTENCY_MAX_WAITERS: "40" });
let store: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

const request = { order: 1 };
const stored = { status: 201, body: '{"id":7}', headers: { "content-type": "application/json" } };
const everything = { services: ["*"], consumerGroups: ["*"], idempotencyScopes: ["*"] };

describe("idempotency waiters per credential", () => {
  it("answers a credential's waits past its share 409 at once, while another credential still waits", async () => {
    const flood = api.as(await api.createToken({ name: "flood", role: "service", ...everything }));
    const other = api.as(await api.createToken({ name: "other", role: "service", ...everything }));
    const base = `/api/v1/idempotency/${uniqueId("scope")}`;
    await flood.request("POST", `${base}/begin`, { key: "held", request });
    const waits = Array.from({ length: 12 }, () => flood.request("POST", `${base}/begin`, { key: "held", request, waitSeconds: 20 }));
    const early: number[] = [];
    for (const wait of waits) void wait.then((answer) => early.push(answer.status));
    await sleep(1000);
    expect(early).toEqual([409, 409]);

    await other.request("POST", `${base}/begin`, { key: "theirs", request });
    const waiting = other.request("POST", `${base}/begin`, { key: "theirs", request, waitSeconds: 20 });
    await sleep(300);
    await other.request("POST", `${base}/complete`, { key: "theirs", request, attempt: 1, response: stored });
    expect((await waiting).body).toMatchObject({ outcome: "completed", response: stored });

    await flood.request("POST", `${base}/complete`, { key: "held", request, attempt: 1, response: stored });
    const answers = await Promise.all(waits);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.waited === false)).toBe(true);
  });
});
