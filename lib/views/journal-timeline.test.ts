import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check } from "@/lib/dedup/last-seen/check";
import { journal } from "@/lib/journal/index";
import { createTestToken } from "@/test/token.fixture";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadKeyTimeline, traceHref } from "./journal-timeline";

let store: TestDatabase;
let api: TestApi;
const template = process.env.WEIR_TRACE_URL;

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
});

afterAll(() => {
  if (template === undefined) delete process.env.WEIR_TRACE_URL;
  else process.env.WEIR_TRACE_URL = template;
});

describe("a key's decision timeline", () => {
  it("names the API token that asked, the request id it sent and links its trace through WEIR_TRACE_URL", async () => {
    const serviceId = await createService(store.db);
    const token = await createTestToken(store.db, { name: "orders-consumer" });
    const headers = { authorization: `Bearer ${token}`, "x-request-id": "req-retry-7", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" };
    for (let i = 0; i < 2; i++) {
      const sent = await api.request("POST", "/api/v1/check", { serviceId, messageId: "O-123", payload: { total: 5 } }, headers);
      expect(sent.status).toBe(200);
    }
    await journal.flush(store.db);

    process.env.WEIR_TRACE_URL = "https://tempo.example/trace/{traceId}";
    const timeline = await loadKeyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "O-123" });
    expect(timeline.entries.map((e) => e.decision)).toEqual(["duplicate", "new"]);
    const [duplicate] = timeline.entries;
    expect(duplicate!.caller).toMatchObject({ name: "orders-consumer" });
    expect(duplicate!.caller!.id).toMatch(/^token:/);
    expect(duplicate).toMatchObject({ requestId: "req-retry-7", version: 1, traceHref: "https://tempo.example/trace/4bf92f3577b34da6a3ce929d0e0e4736" });
    expect(duplicate!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(timeline).toMatchObject({ level: "all", enabled: true, olderBefore: null, gaps: [] });

    delete process.env.WEIR_TRACE_URL;
    const plain = await loadKeyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "O-123" });
    expect(plain.entries[0]!.traceHref).toBeNull();
    expect(plain.entries[0]!.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("pages older answers by time, and shows a library-mode caller as it named itself", async () => {
    const serviceId = await createService(store.db);
    for (const payload of [1, 1, 2, 2, 3]) await check(store.db, { serviceId, messageId: "K", payload, origin: { caller: "billing-worker" } });
    await journal.flush(store.db);
    const first = await loadKeyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "K", limit: 3 });
    expect(first.entries.map((e) => e.decision)).toEqual(["changed", "duplicate", "changed"]);
    expect(first.entries[0]!.caller).toEqual({ id: "billing-worker", name: null });
    expect(first.olderBefore).toBe(first.entries[2]!.atUs);
    const older = await loadKeyTimeline(store.db, { mode: "last_seen", subject: serviceId, key: "K", limit: 3, before: first.olderBefore! });
    expect(older.entries.map((e) => e.decision)).toEqual(["duplicate", "new"]);
    expect(older.olderBefore).toBeNull();
  });

  it("makes trace links only from an http(s) template with a place for the trace id", () => {
    const id = "4bf92f3577b34da6a3ce929d0e0e4736";
    expect(traceHref(id, "https://jaeger.example/trace/{traceId}?x={traceId}")).toBe(`https://jaeger.example/trace/${id}?x=${id}`);
    expect(traceHref(id, "javascript:alert('{traceId}')")).toBeNull();
    expect(traceHref(id, "https://tempo.example/search")).toBeNull();
    expect(traceHref(id, undefined)).toBeNull();
    expect(traceHref("not-a-trace-id", "https://tempo.example/trace/{traceId}")).toBeNull();
    expect(traceHref(null, "https://tempo.example/trace/{traceId}")).toBeNull();
  });
});
