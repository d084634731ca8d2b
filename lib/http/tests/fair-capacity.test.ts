import { beforeAll, describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { check, send, startCapacityApi, tokenFor, until, type Answer } from "./capacity-test-helpers";

/**
 * One node's capacity shared per credential: a token that stalls its bodies holds at most its
 * share of the requests in flight (a quarter of the limit, at least 8), a stalled body is answered
 * 408 at its own deadline, and a full pool sheds its heaviest caller while a light one gets in.
 */
const LIMIT = 16;
const BODY_TIMEOUT_MS = 1500;

let store: TestDatabase;
let url: string;
let serviceId: string;

beforeAll(async () => {
  store = await createTestDatabase();
  url = await startCapacityApi(store, LIMIT, { bodyTimeoutMs: BODY_TIMEOUT_MS });
  serviceId = await createService(store.db);
});

const inFlight = async () => (await send(url, "GET", "/api/health", null)).body.capacity.inFlight as number;
const stall = (token: string, n: number) => Array.from({ length: n }, (_, i) => send(url, "POST", "/api/v1/check", token, check(serviceId, `stall-${i}`), 7));

describe("fair capacity", () => {
  it("holds a token's stalled bodies to its share, answers the rest 429 at once, and keeps serving another token", async () => {
    const flood = await tokenFor(store, { name: "flood" });
    const steady = await tokenFor(store, { name: "steady" });
    const stalled = stall(flood.token, LIMIT);
    const refused: Answer[] = [];
    for (const answer of stalled) void answer.then((a) => refused.push(a));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const served = await send(url, "POST", "/api/v1/check", steady.token, check(serviceId, "steady-1"));
    expect(served.status).toBe(200);

    expect(refused.map((a) => a.status)).toEqual(Array(LIMIT / 2).fill(429));
    expect(refused[0]!.headers["retry-after"]).toBe("1");
    expect(refused[0]!.body.error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("its share is 8") });
    expect(await inFlight()).toBe(LIMIT / 2);

    // The stalled half: 408 at the body's own deadline (not Node's 30 s sweep), the connection closed, the slots back.
    const all = await Promise.all(stalled);
    const timedOut = all.filter((a) => a.status === 408);
    expect(timedOut).toHaveLength(LIMIT / 2);
    for (const answer of timedOut) {
      expect(answer.body.error.code).toBe("body_timeout");
      expect(answer.ms).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
      expect(answer.ms).toBeLessThan(BODY_TIMEOUT_MS * 1.25 + 1000);
      expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(answer.headers.connection).toBe("close");
      expect(await answer.closed).toBe(true);
    }
    expect(await inFlight()).toBe(0);
  });

  it("sheds the heaviest caller (503 overloaded) when the pool is full, while a light one is still served", async () => {
    const a = await tokenFor(store, { name: "heavy a" });
    const b = await tokenFor(store, { name: "heavy b" });
    const light = await tokenFor(store, { name: "light" });
    const held = [...stall(a.token, 8), ...stall(b.token, 8)];
    await until(async () => (await inFlight()) === LIMIT);
    const quiet = await send(url, "GET", "/api/health", null);
    expect(quiet.body.degraded).toBeNull();

    const served = await send(url, "POST", "/api/v1/check", light.token, check(serviceId, "light-1"));
    expect(served.status).toBe(200);
    const shed = await send(url, "POST", "/api/v1/check", a.token, check(serviceId, "heavy-more"));
    expect(shed.status).toBe(503);
    expect(shed.body.error.code).toBe("overloaded");

    const health = await send(url, "GET", "/api/health", null);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("ok");
    expect(health.body.degraded).toMatchObject({ reasons: ["shedding"], message: expect.stringContaining("503 overloaded") });
    expect(health.body.capacity).toMatchObject({ inFlight: LIMIT, limit: LIMIT, heaviestCaller: 8, shed: 1 });
    await Promise.all(held);
  });

  it("applies a token's own in-flight limit, lower or higher than the default share", async () => {
    const small = await tokenFor(store, { name: "small", maxInFlight: 2 });
    const big = await tokenFor(store, { name: "big", maxInFlight: 12 });
    // The first burst of a token this node has not looked up yet: its limit applies once it is authenticated.
    const smallAnswers = stall(small.token, 3);
    const first = await Promise.race(smallAnswers);
    expect(first.status).toBe(429);
    expect(first.body.error.message).toContain("its share is 2");
    expect((await Promise.all(smallAnswers)).filter((a) => a.status === 408)).toHaveLength(2);
    await until(async () => (await inFlight()) === 0);

    // Once the node knows the token, its own share replaces the default (8) before authentication.
    expect((await send(url, "POST", "/api/v1/check", big.token, check(serviceId, "big-known"))).status).toBe(200);
    const bigAnswers = stall(big.token, 13);
    expect((await Promise.race(bigAnswers)).status).toBe(429);
    expect(await inFlight()).toBe(12);
    await Promise.all(bigAnswers);
  });

  it("answers a token past its requests per second 429 with Retry-After, and counts it per token", async () => {
    const paced = await tokenFor(store, { name: "paced", requestsPerSecond: 3 });
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await send(url, "POST", "/api/v1/check", paced.token, check(serviceId, `paced-${i}`)));
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.slice(3).every((a) => a.status === 429)).toBe(true);
    expect(Number(answers[3]!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(answers[3]!.body.error.message).toContain("3 requests per second");
    const metrics = (await send(url, "GET", "/api/metrics", null)).body as string;
    expect(metrics).toMatch(new RegExp(`weir_token_requests_total\\{token="${paced.id}",outcome="admitted"\\} 3`));
    expect(metrics).toMatch(new RegExp(`weir_token_requests_total\\{token="${paced.id}",outcome="rate_limited"\\} 3`));
  });

  it("answers a caller that keeps coming back before its Retry-After late, and another caller at once", async () => {
    const hostile = await tokenFor(store, { name: "hostile" });
    const other = await tokenFor(store, { name: "other" });
    // The hostile token holds its share (8) with stalled bodies; its next 8 are refused at once (a burst on its way is not early).
    const holding = stall(hostile.token, 8);
    await until(async () => (await inFlight()) === 8);
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => send(url, "POST", "/api/v1/check", hostile.token, check(serviceId, `burst-${i}`))));
    expect(burst.map((a) => a.status)).toEqual(Array(8).fill(429));
    for (const answer of burst) expect(answer.ms).toBeLessThan(500);

    // Past that, within its Retry-After, each refusal is answered a whole Retry-After after it came; the other token is served meanwhile.
    const early = [send(url, "POST", "/api/v1/check", hostile.token, check(serviceId, "early-1")), send(url, "POST", "/api/v1/check", hostile.token, check(serviceId, "early-2"))];
    await until(async () => (await send(url, "GET", "/api/health", null)).body.capacity.heldRefusals === 2);
    const served = await send(url, "POST", "/api/v1/check", other.token, check(serviceId, "other-1"));
    expect(served.status).toBe(200);
    expect(served.ms).toBeLessThan(500);
    for (const answer of await Promise.all(early)) {
      expect(answer.status).toBe(429);
      expect(answer.ms).toBeGreaterThanOrEqual(Number(answer.headers["retry-after"]) * 1000 - 50);
    }
    expect((await send(url, "GET", "/api/health", null)).body.capacity.heldRefusals).toBe(0);
    await Promise.all(holding);
  });
});
