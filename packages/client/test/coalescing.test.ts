import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestToken } from "@/test/token.fixture";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createWeirClient, type WeirClientOptions } from "../src/client";
import { WeirApiError } from "../src/errors";
import { withRequestId } from "../src/request-id";
import { withDedup } from "../src/with-dedup";

let store: TestDatabase;
let api: TestApi;
let token: string;
const servers: http.Server[] = [];

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  token = await createTestToken(store.db);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await store.close();
});

interface Sent {
  path: string;
  items: number;
  requestId: string | null;
}

/** A client of the real API whose requests are written down (path, number of items, request id) as they leave. */
function recordingClient(options: Partial<WeirClientOptions> = {}, baseUrl = api.url) {
  const sent: Sent[] = [];
  const client = createWeirClient({
    baseUrl,
    token,
    retries: 0,
    ...options,
    fetch: async (url, init) => {
      const body = JSON.parse(String(init?.body ?? "{}")) as { items?: unknown[] };
      const headers = new Headers(init?.headers);
      sent.push({ path: new URL(String(url)).pathname, items: body.items?.length ?? 1, requestId: headers.get("x-request-id") });
      return fetch(url, init);
    },
  });
  return { client, sent };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("concurrent checks travel together", () => {
  it("sends the checks of one turn as one batch, each caller getting its own decision", async () => {
    const serviceId = await createService(store.db);
    const { client, sent } = recordingClient();
    await client.check({ serviceId, messageId: "m-3", payload: { n: 3 } });
    sent.length = 0;
    const answers = await Promise.all(range(40).map((i) => client.check({ serviceId, messageId: `m-${i}`, payload: { n: i === 5 ? 99 : i } })));
    expect(sent).toEqual([{ path: "/api/v1/check/batch", items: 40, requestId: expect.any(String) }]);
    expect(answers.map((a) => a.messageId)).toEqual(range(40).map((i) => `m-${i}`));
    expect(answers[3]).toMatchObject({ decision: "duplicate", version: 1 });
    expect(answers[5]).toMatchObject({ decision: "new", version: 1 });
    expect(answers.filter((a) => a.decision === "new")).toHaveLength(39);
  });

  it("sends a lone call as a single check, at once, with its own request id", async () => {
    const serviceId = await createService(store.db);
    const { client, sent } = recordingClient();
    const answer = await withRequestId("lone-call-1", () => client.check({ serviceId, messageId: "solo", payload: 1 }));
    expect(answer.decision).toBe("new");
    expect(sent).toEqual([{ path: "/api/v1/check", items: 1, requestId: "lone-call-1" }]);
  });

  it("keeps a batch's shared request id, and gives a mixed batch an id of its own", async () => {
    const serviceId = await createService(store.db);
    const { client, sent } = recordingClient();
    await withRequestId("shared-id", () => Promise.all(range(3).map((i) => client.check({ serviceId, messageId: `s-${i}`, payload: i }))));
    await Promise.all(range(3).map((i) => withRequestId(`own-${i}`, () => client.check({ serviceId, messageId: `o-${i}`, payload: i }))));
    expect(sent[0]).toMatchObject({ items: 3, requestId: "shared-id" });
    expect(sent[1]).toMatchObject({ items: 3 });
    expect(sent[1]!.requestId).not.toMatch(/^own-/);
  });

  it("keeps the order of calls for one key: never two of them in flight", async () => {
    const serviceId = await createService(store.db);
    const { client, sent } = recordingClient();
    const payloads = [1, 1, 2, 2, 1, 3];
    const answers = await Promise.all([
      ...payloads.map((payload) => client.check({ serviceId, messageId: "same", payload })),
      client.check({ serviceId, messageId: "other", payload: 0 }),
    ]);
    expect(answers.map((a) => [a.decision, a.version])).toEqual([
      ["new", 1],
      ["duplicate", 1],
      ["changed", 2],
      ["duplicate", 2],
      ["changed", 3],
      ["changed", 4],
      ["new", 1],
    ]);
    // The first of "same" travels with "other"; each later one waits for the one before it.
    expect(sent.map((s) => s.items)).toEqual([2, 1, 1, 1, 1, 1]);
  });

  it("fails only the caller whose item is refused; the others get their decisions", async () => {
    const serviceId = await createService(store.db);
    const { client, sent } = recordingClient();
    const calls = [
      client.check({ serviceId, messageId: "ok-1", payload: 1 }),
      client.check({ serviceId, messageId: "", payload: 2 }),
      client.check({ serviceId: uniqueId("missing"), messageId: "ok-3", payload: 3 }),
      client.check({ serviceId, messageId: "ok-4", payload: 4 }),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled[0]).toMatchObject({ status: "fulfilled", value: { messageId: "ok-1", decision: "new" } });
    expect(settled[3]).toMatchObject({ status: "fulfilled", value: { messageId: "ok-4", decision: "new" } });
    const invalid = (settled[1] as PromiseRejectedResult).reason;
    expect(invalid).toBeInstanceOf(WeirApiError);
    expect(invalid).toMatchObject({ status: 400, field: "messageId", outcome: "not_made" });
    const unknown = (settled[2] as PromiseRejectedResult).reason;
    expect(unknown).toBeInstanceOf(WeirApiError);
    expect((unknown as WeirApiError).status).toBeGreaterThanOrEqual(400);
    expect(sent[0]).toMatchObject({ path: "/api/v1/check/batch", items: 4 });
    expect(sent.slice(1).map((s) => s.path)).toEqual(Array(4).fill("/api/v1/check"));
  });

  it("fails every caller with the real error when the whole request fails", async () => {
    let batches = 0;
    const server = http.createServer((req, res) => {
      batches += req.url === "/api/v1/check/batch" ? 1 : 0;
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "internal", message: "internal error; reference r-1" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const { client } = recordingClient({}, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const settled = await Promise.allSettled(range(5).map((i) => client.check({ serviceId: "svc", messageId: `m-${i}`, payload: i })));
    expect(batches).toBe(1);
    for (const result of settled) {
      expect(result.status).toBe("rejected");
      expect((result as PromiseRejectedResult).reason).toMatchObject({ name: "WeirApiError", status: 500, code: "internal", outcome: "unknown" });
    }
  });

  it("bounds a batch's size, and waits at most maxWaitMs for others to join", async () => {
    const serviceId = await createService(store.db);
    const bounded = recordingClient({ coalesce: { maxItems: 10 } });
    const answers = await Promise.all(range(35).map((i) => bounded.client.check({ serviceId, messageId: `b-${i}`, payload: i })));
    expect(answers.every((a, i) => a.messageId === `b-${i}` && a.decision === "new")).toBe(true);
    expect(bounded.sent.map((s) => s.items)).toEqual([10, 10, 10, 5]);

    // Calls a few turns of the event loop apart: they travel together only when asked to wait.
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const spaced = async (client: typeof bounded.client, prefix: string) => {
      const calls = [];
      for (const i of range(3)) {
        calls.push(client.check({ serviceId, messageId: `${prefix}-${i}`, payload: i }));
        for (const _ of range(3)) await nextTurn();
      }
      return Promise.all(calls);
    };
    const waiting = recordingClient({ coalesce: { maxWaitMs: 1000 } });
    await spaced(waiting.client, "w");
    expect(waiting.sent.map((s) => [s.path, s.items])).toEqual([["/api/v1/check/batch", 3]]);
    const eager = recordingClient();
    await spaced(eager.client, "e");
    expect(eager.sent.map((s) => s.path)).toEqual(Array(3).fill("/api/v1/check"));
  });

  it("sends one request per call when switched off, and a call with its own abort signal alone", async () => {
    const serviceId = await createService(store.db);
    const off = recordingClient({ coalesce: false });
    await Promise.all(range(5).map((i) => off.client.check({ serviceId, messageId: `f-${i}`, payload: i })));
    expect(off.sent.map((s) => s.path)).toEqual(Array(5).fill("/api/v1/check"));

    const on = recordingClient();
    const signal = new AbortController().signal;
    await Promise.all([0, 1].map((i) => on.client.check({ serviceId, messageId: `g-${i}`, payload: i }, { signal })));
    expect(on.sent.map((s) => s.path)).toEqual(["/api/v1/check", "/api/v1/check"]);
  });
});

describe("concurrent claims travel together", () => {
  it("sends the claims of one turn as one claim batch, order per message kept", async () => {
    const consumerGroup = uniqueId("grp");
    const { client, sent } = recordingClient();
    await client.putConsumerGroup(consumerGroup, { ttlSeconds: 3600, reason: "coalescing test" });
    sent.length = 0;
    const answers = await Promise.all([...range(20).map((i) => client.claim({ consumerGroup, messageId: `c-${i}` })), client.claim({ consumerGroup, messageId: "c-0" })]);
    expect(answers.slice(0, 20).every((a, i) => a.messageId === `c-${i}` && a.decision === "new")).toBe(true);
    expect(answers[20]).toMatchObject({ messageId: "c-0", decision: "duplicate" });
    expect(sent).toEqual([
      { path: "/api/v1/claim/batch", items: 20, requestId: expect.any(String) },
      { path: "/api/v1/claim", items: 1, requestId: expect.any(String) },
    ]);
  });
});

describe("withDedup", () => {
  it("sends the claims of messages handled at once as one batch, and runs each handler once", async () => {
    const consumerGroup = uniqueId("grp");
    const { client, sent } = recordingClient();
    await client.putConsumerGroup(consumerGroup, { ttlSeconds: 3600, reason: "coalescing test" });
    sent.length = 0;
    const handled: string[] = [];
    const handle = withDedup(async (id: string) => void handled.push(id), { client, consumerGroup, messageId: (id) => id, logger: false });
    const outcomes = await Promise.all(["a", "b", "c", "a", "d"].map((id) => handle(id)));
    expect(outcomes.map((o) => o.status)).toEqual(["processed", "processed", "processed", "skipped", "processed"]);
    expect(handled.sort()).toEqual(["a", "b", "c", "d"]);
    expect(sent.map((s) => [s.path, s.items])).toEqual([
      ["/api/v1/claim/batch", 4],
      ["/api/v1/claim", 1],
    ]);
  });
});
