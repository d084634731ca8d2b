import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { AsyncLocalStorage } from "node:async_hooks";
import { ROOT_CONTEXT, context, trace, type Context, type ContextManager } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { check } from "@/lib/dedup/last-seen/check";
import { decided } from "./decisions";
import { startTracing, tracingConfigFromEnv, type Tracing } from "./otel-sdk";
import { traceDecisions } from "./spans";

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status: { code?: number };
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
type KeyValues = { key: string; value: AnyValue }[] | undefined;

const valueOf = (v: AnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (list: KeyValues) => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
// OTLP/JSON carries ids as hex; base64 is what a protobuf-minded encoder would send.
const hexOf = (id: string | undefined) => (!id ? undefined : /^[\da-f]+$/.test(id) ? id : Buffer.from(id, "base64").toString("hex"));

/** A real OTLP/HTTP receiver: POST /v1/traces, JSON bodies, spans decoded as a collector would. */
async function startReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      contentTypes.push(String(req.headers["content-type"]));
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8"));
      for (const rs of body.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({ ...s, traceId: hexOf(s.traceId)!, spanId: hexOf(s.spanId)!, parentSpanId: hexOf(s.parentSpanId), attributes: attributesOf(s.attributes), resource });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes };
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const sinkNames = () => (globalThis as Record<symbol, { names: string[] }>)[Symbol.for("weir.telemetry.decisionSinks")]!.names;
const OTEL_VARS = Object.keys(process.env).filter((name) => name.startsWith("OTEL_"));

let store: TestDatabase;
let api: TestApi;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  for (const name of OTEL_VARS) delete process.env[name];
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  receiver = await startReceiver();
});

describe("tracing configuration", () => {
  it("starts only when the standard variables ask for OTLP, and says what it ignores", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(tracingConfigFromEnv({}).enabled).toBe(false);
    expect(tracingConfigFromEnv(endpoint)).toMatchObject({ enabled: true, endpoint: "http://collector:4318/v1/traces", warnings: [] });
    expect(tracingConfigFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://u:p@tempo:4318/v1/traces" }).endpoint).toBe("https://tempo:4318/v1/traces");
    expect(tracingConfigFromEnv({ OTEL_TRACES_EXPORTER: "otlp" })).toMatchObject({ enabled: true, endpoint: "http://localhost:4318/v1/traces" });
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_SDK_DISABLED: "true" }).enabled).toBe(false);
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }).enabled).toBe(false);
    const zipkin = tracingConfigFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: "zipkin" });
    expect(zipkin.enabled).toBe(false);
    expect(zipkin.warnings[0]).toMatch(/zipkin is not shipped/);
    expect(tracingConfigFromEnv({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }).warnings[0]).toMatch(/weir sends http\/json/);
  });
});

/** What a service's SDK registers (AsyncLocalStorage), in a few lines: the active span follows its awaits. */
class AsyncContext implements ContextManager {
  private readonly store = new AsyncLocalStorage<Context>();
  active = () => this.store.getStore() ?? ROOT_CONTEXT;
  with = <A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A) =>
    this.store.run(ctx, () => fn.call(thisArg, ...args));
  bind = <T>(_ctx: Context, target: T) => target;
  enable = () => this;
  disable = () => {
    this.store.disable();
    return this;
  };
}

describe("the spans' own buffer", () => {
  it("in library mode, puts a decision under the caller's active span", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    context.setGlobalContextManager(new AsyncContext());
    const spans = traceDecisions(provider);
    try {
      const serviceId = await createService(store.db);
      const job = provider.getTracer("billing-worker").startSpan("handle order");
      await context.with(trace.setSpan(ROOT_CONTEXT, job), () => check(store.db, { serviceId, messageId: "L-1", payload: 1, origin: { caller: "billing-worker" } }));
      job.end();
      spans.drain();
      const [decision] = exporter.getFinishedSpans().filter((s) => s.name === "weir.check");
      expect(decision!.spanContext().traceId).toBe(job.spanContext().traceId);
      expect(decision!.parentSpanContext?.spanId).toBe(job.spanContext().spanId);
      expect(decision!.attributes).toMatchObject({ "weir.caller": "billing-worker", "weir.key": "L-1", "weir.decision": "new" });
    } finally {
      spans.stop();
      context.disable();
      await provider.shutdown();
    }
  });

  it("makes the spans after the answer, and counts what overflows a burst instead of holding it", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const spans = traceDecisions(provider, 3);
    try {
      for (let i = 0; i < 5; i++) decided({ mode: "window", subject: "grp", decision: "new", key: `K-${i}` });
      // Nothing is made on the decision's path itself.
      expect(exporter.getFinishedSpans()).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(exporter.getFinishedSpans().map((s) => s.attributes["weir.key"])).toEqual(["K-0", "K-1", "K-2"]);
      expect(spans.dropped).toBe(2);
      decided({ mode: "window_release", subject: "grp", decision: "released", key: "K-9" });
    } finally {
      spans.stop();
    }
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["weir.claim", "weir.claim", "weir.claim", "weir.claim.release"]);
    expect(sinkNames()).not.toContain("spans");
    await provider.shutdown();
  });
});

// In order: first a node without tracing, then one configured, then shut down.
describe("one span per decision", () => {
  let tracing: Tracing | undefined;

  it("costs nothing without an SDK: no subscriber, the API's no-op provider, nothing sent", async () => {
    expect(await startTracing()).toBeUndefined();
    expect(sinkNames()).not.toContain("spans");
    expect(trace.getTracer("probe").startSpan("probe").isRecording()).toBe(false);
    const serviceId = await createService(store.db);
    const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "A-1", payload: 1 }, { traceparent: `00-${hex(16)}-${hex(8)}-01` });
    expect(sent.status).toBe(200);
    expect(receiver.contentTypes).toEqual([]);
  });

  it("joins the caller's trace: the traceparent's trace, its span as parent, the decision's attributes", async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
    tracing = await startTracing();
    expect(tracing).toBeDefined();
    expect(sinkNames()).toContain("spans");

    const serviceId = await createService(store.db);
    const [traceId, parentSpanId] = [hex(16), hex(8)];
    const headers = { traceparent: `00-${traceId}-${parentSpanId}-01`, "x-request-id": "req-span-1" };
    const before = BigInt(Date.now()) * 1_000_000n;
    const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "O-123", payload: { amount: 5 } }, headers);
    expect(sent.body).toMatchObject({ decision: "new" });
    await tracing!.forceFlush();

    expect(receiver.contentTypes.every((type) => type.startsWith("application/json"))).toBe(true);
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ name: "weir.check", parentSpanId, kind: 2 /* SERVER */ });
    expect(spans[0]!.attributes).toMatchObject({
      "weir.mode": "last_seen",
      "weir.subject": serviceId,
      "weir.key": "O-123",
      "weir.decision": "new",
      "weir.version": 1,
      "weir.request_id": "req-span-1",
    });
    expect(spans[0]!.attributes["weir.caller"]).toMatch(/^token:/);
    // An instant at the decision, taken as the engine answered.
    const start = BigInt(spans[0]!.startTimeUnixNano);
    expect(BigInt(spans[0]!.endTimeUnixNano)).toBe(start);
    expect(start >= before - 5_000_000n && start <= BigInt(Date.now()) * 1_000_000n).toBe(true);
    expect(spans[0]!.resource["service.name"]).toBe("weir");
  });

  it("gives each decision of a batch its own span in the same trace", async () => {
    const serviceId = await createService(store.db);
    const [traceId, parentSpanId] = [hex(16), hex(8)];
    const items = ["B-1", "B-2", "B-3"].map((messageId) => ({ serviceId, messageId, payload: { messageId } }));
    await api.request("POST", "/api/v1/check", items[1], { traceparent: `00-${hex(16)}-${hex(8)}-01` });
    const sent = await api.request("POST", "/api/v1/check/batch", { items }, { traceparent: `00-${traceId}-${parentSpanId}-01` });
    expect(sent.status).toBe(200);
    await tracing!.forceFlush();

    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    expect(spans).toHaveLength(3);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(3);
    expect(spans.every((s) => s.parentSpanId === parentSpanId && s.name === "weir.check")).toBe(true);
    const byKey = Object.fromEntries(spans.map((s) => [s.attributes["weir.key"], s.attributes["weir.decision"]]));
    expect(byKey).toEqual({ "B-1": "new", "B-2": "duplicate", "B-3": "new" });
  });

  it("names claims and idempotency begins, and starts a new trace when no traceparent is sent", async () => {
    const group = uniqueId("payouts");
    const scope = uniqueId("charges");
    const requestId = uniqueId("req-untraced");
    await api.request("POST", "/api/v1/claim", { consumerGroup: group, messageId: "P-1" }, { "x-request-id": requestId });
    await api.request("POST", `/api/v1/idempotency/${scope}/begin`, { key: "K-1", request: { a: 1 } }, { "x-request-id": requestId });
    await tracing!.forceFlush();

    const spans = receiver.spans.filter((s) => s.attributes["weir.request_id"] === requestId);
    expect(spans.map((s) => [s.name, s.attributes["weir.subject"], s.attributes["weir.decision"]])).toEqual([
      ["weir.claim", group, "new"],
      ["weir.idempotency.begin", scope, "started"],
    ]);
    for (const span of spans) {
      expect(span.parentSpanId ?? "").toBe("");
      expect(span.kind).toBe(1 /* INTERNAL */);
    }
    expect(spans[0]!.traceId).not.toBe(spans[1]!.traceId);
  });

  it("follows the caller's sampling: a traceparent flagged not sampled sends no span", async () => {
    const serviceId = await createService(store.db);
    const traceId = hex(16);
    await api.request("POST", "/api/v1/check", { serviceId, messageId: "U-1", payload: 1 }, { traceparent: `00-${traceId}-${hex(8)}-00` });
    await api.request("POST", "/api/v1/check", { serviceId, messageId: "U-2", payload: 1 }, { traceparent: `00-${hex(16)}-${hex(8)}-01` });
    await tracing!.forceFlush();
    expect(receiver.spans.some((s) => s.attributes["weir.key"] === "U-2")).toBe(true);
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toEqual([]);
  });

  it("unsubscribes on shutdown, after sending what it held", async () => {
    const serviceId = await createService(store.db);
    const traceId = hex(16);
    await api.request("POST", "/api/v1/check", { serviceId, messageId: "S-1", payload: 1 }, { traceparent: `00-${traceId}-${hex(8)}-01` });
    await tracing!.shutdown();
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toHaveLength(1);
    expect(sinkNames()).not.toContain("spans");
    expect(trace.getTracer("probe").startSpan("probe").isRecording()).toBe(false);
  });
});
