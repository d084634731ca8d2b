import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCleanupSchedule } from "@/lib/dedup/window/cleanup";
import { StoreUnavailableError } from "@/lib/errors";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createTestToken } from "@/test/token.fixture";
import { createHistogram } from "node:perf_hooks";
import { Histogram, Registry } from "prom-client";
import { cleanupPassObserver } from "./cleanup";
import { drainEventLoopDelay } from "./event-loop";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Reads the Prometheus text format: one sample per non-comment line. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

let store: TestDatabase;
let api: TestApi;
let auth: Record<string, string>;

/** An authenticated API call. */
const call = (method: string, path: string, body?: unknown, on: TestApi = api) => on.request(method, path, body, auth);

async function scrape(on: TestApi = api) {
  const response = await fetch(`${on.url}/api/metrics`, { headers: auth });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return parseExposition(await response.text());
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

beforeAll(async () => {
  store = await createTestDatabase({ poolMax: 7 });
  api = await startTestApi(async () => store);
  auth = { authorization: `Bearer ${await createTestToken(store.db, { role: "admin" })}` };
});

afterAll(() => store.close());

describe("GET /api/metrics", () => {
  it("counts checks by service and decision, and decision latency", async () => {
    const service = await createService(store.db);
    const check = (messageId: string, payload: unknown) => call("POST", "/api/v1/check", { serviceId: service, messageId, payload });
    await check("a", { v: 1 });
    await check("a", { v: 1 });
    await check("a", { v: 2 });
    await call("POST", "/api/v1/check/batch", {
      items: [
        { serviceId: service, messageId: "b", payload: 1 },
        { serviceId: service, messageId: "b", payload: 1 },
        { serviceId: service, messageId: "c", payload: 1 },
      ],
    });
    const samples = await scrape();
    expect(value(samples, "weir_checks_total", { service, outcome: "new" })).toBe(3);
    expect(value(samples, "weir_checks_total", { service, outcome: "duplicate" })).toBe(2);
    expect(value(samples, "weir_checks_total", { service, outcome: "changed" })).toBe(1);
    const single = { mode: "last_seen", route: "/api/v1/check" };
    expect(value(samples, "weir_decision_duration_seconds_count", single)).toBeGreaterThanOrEqual(3);
    expect(value(samples, "weir_decision_duration_seconds_bucket", { ...single, le: "+Inf" })).toBeGreaterThanOrEqual(3);
    expect(value(samples, "weir_http_request_duration_seconds_count", { route: "/api/v1/check/batch", status: "200" })).toBeGreaterThanOrEqual(1);
  });

  it("counts claims, late redeliveries and their lateness", async () => {
    const group = uniqueId("grp");
    expect((await call("PUT", `/api/v1/consumer-groups/${group}`, { ttlSeconds: 1, reason: "metrics test" })).status).toBe(201);
    const claim = () => call("POST", "/api/v1/claim", { consumerGroup: group, messageId: "m-1" });
    expect((await claim()).body.decision).toBe("new");
    expect((await claim()).body.decision).toBe("duplicate");
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await claim()).body.lateRedelivery).toBeDefined();
    await call("POST", "/api/v1/claim/batch", { items: [{ consumerGroup: group, messageId: "m-2" }] });
    const samples = await scrape();
    expect(value(samples, "weir_claims_total", { consumer_group: group, outcome: "new" })).toBe(3);
    expect(value(samples, "weir_claims_total", { consumer_group: group, outcome: "duplicate" })).toBe(1);
    expect(value(samples, "weir_late_redeliveries_total", { consumer_group: group })).toBe(1);
    expect(value(samples, "weir_late_redelivery_lateness_seconds_count", { consumer_group: group })).toBe(1);
  });

  it("counts idempotency begins by outcome and releases", async () => {
    const scope = uniqueId("scope");
    const begin = (request: unknown) => call("POST", `/api/v1/idempotency/${scope}/begin`, { key: "k-1", request });
    const started = await begin({ amount: 10 });
    expect(started.status).toBe(201);
    expect((await begin({ amount: 10 })).status).toBe(409);
    expect((await begin({ amount: 11 })).status).toBe(422);
    const release = await call("POST", `/api/v1/idempotency/${scope}/release`, { key: "k-1", attempt: started.body.attempt });
    expect(release.body.released).toBe(true);
    const again = await begin({ amount: 10 });
    await call("POST", `/api/v1/idempotency/${scope}/complete`, {
      key: "k-1",
      request: { amount: 10 },
      attempt: again.body.attempt,
      response: { status: 200, body: "ok" },
    });
    expect((await begin({ amount: 10 })).body.outcome).toBe("completed");
    const samples = await scrape();
    expect(value(samples, "weir_idempotency_begins_total", { scope, outcome: "started" })).toBe(2);
    expect(value(samples, "weir_idempotency_begins_total", { scope, outcome: "in_progress" })).toBe(1);
    expect(value(samples, "weir_idempotency_begins_total", { scope, outcome: "mismatch" })).toBe(1);
    expect(value(samples, "weir_idempotency_begins_total", { scope, outcome: "completed" })).toBe(1);
    expect(value(samples, "weir_idempotency_releases_total", { scope, released: "true" })).toBe(1);
  });

  it("counts request errors by code, and reports pool usage", async () => {
    const before = value(await scrape(), "weir_request_errors_total", { route: "/api/v1/check", code: "not_found" }) ?? 0;
    const missing = await call("POST", "/api/v1/check", { serviceId: uniqueId("nope"), messageId: "x", payload: 1 });
    expect(missing.status).toBe(404);
    const samples = await scrape();
    expect(value(samples, "weir_request_errors_total", { route: "/api/v1/check", code: "not_found" })).toBe(before + 1);
    expect(value(samples, "weir_store_up")).toBe(1);
    expect(value(samples, "weir_db_pool_max")).toBe(7);
    expect(value(samples, "weir_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    expect(value(samples, "weir_db_pool_connections", { state: "waiting" })).toBeGreaterThanOrEqual(0);
    expect(value(samples, "weir_process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("reports the API's adaptive concurrency limit, the requests in flight and its no-load latency", async () => {
    // enough answers, over long enough, to close one of the limit's windows (10 answers, 100 ms)
    const started = performance.now();
    for (let i = 0; i < 12 || performance.now() - started < 150; i++) await call("POST", "/api/v1/check", { serviceId: uniqueId("nope"), messageId: "x", payload: 1 });
    const samples = await scrape();
    // a light load leaves the limit at its ceiling (WEIR_MAX_IN_FLIGHT, 512 by default); the scrape itself is not counted
    expect(value(samples, "weir_http_concurrency_limit")).toBe(512);
    expect(value(samples, "weir_http_requests_in_flight")).toBe(0);
    expect(value(samples, "weir_http_no_load_latency_seconds")).toBeGreaterThan(0);
    expect(value(samples, "weir_http_shed_total")).toBe(0);
  });

  it("counts cleanup rows removed and lag, from the API and from the schedule", async () => {
    const response = await call("POST", "/api/v1/cleanup", {});
    expect(response.status).toBe(200);
    let samples = await scrape();
    const passes = value(samples, "weir_cleanup_passes_total", { result: "complete" }) ?? 0;
    expect(passes).toBeGreaterThanOrEqual(1);
    expect(value(samples, "weir_cleanup_rows_removed_total", { kind: "window_record" })).toBeGreaterThanOrEqual(0);
    expect(value(samples, "weir_cleanup_lag_seconds", { kind: "max" })).toBe(response.body.lag.seconds);

    const schedule = startCleanupSchedule(async () => store.db, 20, { onPass: cleanupPassObserver(async () => store.db) });
    try {
      await expect.poll(async () => value(await scrape(), "weir_cleanup_passes_total", { result: "complete" }), { timeout: 5000 }).toBeGreaterThan(passes);
    } finally {
      await schedule.stop();
    }
    samples = await scrape();
    expect(value(samples, "weir_cleanup_last_pass_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it("exposes the event loop's delay as a histogram that sees a blocked loop", async () => {
    const slow = (samples: Sample[]) => value(samples, "weir_event_loop_delay_seconds_count")! - value(samples, "weir_event_loop_delay_seconds_bucket", { le: "0.05" })!;
    const slowBefore = slow(await scrape());
    const stall = () => {
      const blockedUntil = performance.now() + 120;
      while (performance.now() < blockedUntil); // a 120 ms stall, as a long synchronous call would cause
    };
    // Stall again on each poll: on a loaded machine one sample can land before the stall begins.
    await expect
      .poll(async () => {
        stall();
        await new Promise((resolve) => setTimeout(resolve, 50));
        return slow(await scrape());
      }, { timeout: 10_000, interval: 200 })
      .toBeGreaterThan(slowBefore);
    const samples = await scrape();
    const count = value(samples, "weir_event_loop_delay_seconds_count")!;
    const sum = value(samples, "weir_event_loop_delay_seconds_sum")!;
    expect(count).toBeGreaterThan(5);
    expect(value(samples, "weir_event_loop_delay_seconds_bucket", { le: "+Inf" })).toBe(count);
    expect(sum / count).toBeGreaterThan(0);
    expect(sum / count).toBeLessThan(0.5);
    expect(value(samples, "weir_event_loop_delay_seconds_bucket", { le: "0.0005" })).toBeGreaterThan(0);
  });

  it("times pool checkouts and reports the most requests that waited at once", async () => {
    const before = await scrape();
    const countBefore = value(before, "weir_db_pool_wait_seconds_count") ?? 0;
    const slowBefore = countBefore - (value(before, "weir_db_pool_wait_seconds_bucket", { le: "0.025" }) ?? 0);
    // 28 statements of 60 ms on a pool of 7: three waves, so 21 of them wait for a connection.
    await Promise.all(Array.from({ length: 28 }, () => store.pool!.query("select pg_sleep(0.06)")));
    const samples = await scrape();
    const count = value(samples, "weir_db_pool_wait_seconds_count")!;
    expect(count - countBefore).toBeGreaterThanOrEqual(28);
    const slow = count - value(samples, "weir_db_pool_wait_seconds_bucket", { le: "0.025" })!;
    expect(slow - slowBefore).toBeGreaterThanOrEqual(14);
    expect(value(samples, "weir_db_pool_wait_seconds_sum")).toBeLessThan(count * 5);
    expect(value(samples, "weir_db_pool_waiting_peak")).toBeGreaterThanOrEqual(14);
    expect(value(await scrape(), "weir_db_pool_waiting_peak")).toBe(0);
  });
  it("counts store errors and reports the store down while it is unreachable", async () => {
    const down = await startTestApi(() => Promise.reject(new StoreUnavailableError(1)));
    const response = await call("POST", "/api/v1/claim", { consumerGroup: "g", messageId: "m" }, down);
    expect(response.status).toBe(503);
    expect(response.body).not.toHaveProperty("decision");
    // The down API cannot authenticate a scrape (the token store is down too); the registry is per process.
    const samples = await scrape();
    expect(value(samples, "weir_store_errors_total", { source: "/api/v1/claim" })).toBe(1);
    expect(value(samples, "weir_request_errors_total", { route: "/api/v1/claim", code: "store_unavailable" })).toBe(1);
    expect(value(samples, "weir_store_up")).toBe(0);
    expect(samples.some((s) => s.name === "weir_db_pool_connections")).toBe(false);
  });
});

describe("drainEventLoopDelay", () => {
  it("moves the native samples into Prometheus buckets, less the sampling interval", async () => {
    const native = createHistogram();
    for (let i = 0; i < 98; i++) native.record(11_000_000); // 10 ms interval + 1 ms late
    native.record(210_000_000);
    native.record(210_000_000); // 200 ms late: a stall
    const registry = new Registry();
    const target = new Histogram({ name: "delay_seconds", help: "test", buckets: [0.002, 0.1, 0.5], registers: [registry] });
    expect(drainEventLoopDelay(native, target)).toBe(100);
    const { values } = await target.get();
    const bucket = (le: number | string) => values.find((v) => v.metricName === "delay_seconds_bucket" && v.labels.le === le)?.value;
    expect(bucket(0.002)).toBe(98);
    expect(bucket(0.1)).toBe(98);
    expect(bucket(0.5)).toBe(100);
    expect(native.count).toBe(0);
    expect(drainEventLoopDelay(native, target)).toBe(0);
  });
});
