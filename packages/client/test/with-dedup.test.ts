import { beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "@/lib/errors";
import { startTestApi } from "@/test/api-server";
import { createService, uniqueId } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { createWeirClient, type WeirClient } from "../src/client";
import { WeirApiError } from "../src/errors";
import { createTestToken } from "@/test/token.fixture";
import { withDedup, type DedupLogger } from "../src/with-dedup";

interface Event {
  id: string;
  body: { amount: number };
}

let store: TestDatabase;
let client: WeirClient;
let token: string;

const logs: string[] = [];
const logger: DedupLogger = { info: (m) => logs.push(m), warn: (m) => logs.push(m) };

beforeAll(async () => {
  store = await createTestDatabase();
  const api = await startTestApi(async () => store);
  token = await createTestToken(store.db);
  client = createWeirClient({ baseUrl: api.url, token, minDelayMs: 1, maxDelayMs: 5 });
});

describe("withDedup for a consumer group", () => {
  it("runs the handler once per message, skips and counts duplicates", async () => {
    const consumerGroup = uniqueId("mailer");
    const sent: string[] = [];
    const handle = withDedup(async (event: Event) => void sent.push(event.id), { client, consumerGroup, messageId: (e) => e.id, logger });
    const event = { id: "E-1", body: { amount: 5 } };
    expect(await handle(event)).toMatchObject({ status: "processed", messageId: "E-1" });
    expect(await handle(event)).toEqual({ status: "skipped", messageId: "E-1", reason: "duplicate" });
    expect(await handle(event)).toMatchObject({ status: "skipped" });
    expect(sent).toEqual(["E-1"]);
    expect(handle.counts).toMatchObject({ processed: 1, skipped: 2, failed: 0 });
    expect(logs.some((line) => line.includes("duplicate skipped") && line.includes(`consumerGroup=${consumerGroup}`))).toBe(true);
  });

  it("releases the claim when the handler fails, so the redelivery runs it again", async () => {
    const consumerGroup = uniqueId("mailer");
    let attempts = 0;
    const handle = withDedup(
      async (_event: Event) => {
        attempts++;
        if (attempts === 1) throw new Error("SMTP timeout");
        return attempts;
      },
      { client, consumerGroup, messageId: (e) => e.id, logger },
    );
    const event = { id: "E-2", body: { amount: 5 } };
    await expect(handle(event)).rejects.toThrow("SMTP timeout");
    const retried = await handle(event);
    expect(retried).toMatchObject({ status: "processed", result: 2 });
    expect(handle.counts).toMatchObject({ processed: 1, failed: 1, released: 1, skipped: 0 });
  });

  it("skips a message another consumer is handling: the claim holds the window while the handler runs", async () => {
    const consumerGroup = uniqueId("mailer");
    let finish!: () => void;
    const slow = withDedup((_event: Event) => new Promise<void>((resolve) => (finish = resolve)), { client, consumerGroup, messageId: (e) => e.id, logger });
    const other = withDedup(async (_event: Event) => "ran", { client, consumerGroup, messageId: (e) => e.id, logger });
    const first = slow({ id: "E-3", body: { amount: 5 } });
    await expect.poll(() => finish !== undefined).toBe(true);
    expect(await other({ id: "E-3", body: { amount: 5 } })).toEqual({ status: "skipped", messageId: "E-3", reason: "duplicate" });
    finish();
    await first;
    expect(other.counts).toMatchObject({ skipped: 1, processed: 0 });
    expect(logs.some((line) => line.includes(`consumerGroup=${consumerGroup} messageId=E-3 windowStartedAt=20`))).toBe(true);
  });

  it("never runs the handler when weir cannot decide", async () => {
    const down = await startTestApi(() => Promise.reject(new StoreUnavailableError(0)));
    const offline = createWeirClient({ baseUrl: down.url, token, retries: 1, minDelayMs: 1, maxDelayMs: 2 });
    let ran = false;
    const handle = withDedup(async () => void (ran = true), { client: offline, consumerGroup: "g", messageId: () => "m", logger });
    await expect(handle({})).rejects.toMatchObject({ status: 503, outcome: "not_made" });
    const byService = withDedup(async () => void (ran = true), { client: offline, serviceId: "s", messageId: () => "m", payload: () => 1, logger });
    await expect(byService({})).rejects.toBeInstanceOf(WeirApiError);
    expect(ran).toBe(false);
  });
});

describe("withDedup for a service (projection dedup)", () => {
  it("skips payloads the service already has, runs changes, and counts", async () => {
    const serviceId = await createService(store.db, { ignoredPaths: ["/sentAt"] });
    const applied: unknown[] = [];
    const handle = withDedup(async (e: { id: string; state: unknown }, ctx) => void applied.push([e.state, ctx.decision]), {
      client,
      serviceId,
      messageId: (e) => e.id,
      payload: (e) => e.state,
      logger,
    });
    await handle({ id: "O-1", state: { status: "paid", sentAt: "t1" } });
    await handle({ id: "O-1", state: { status: "paid", sentAt: "t2" } });
    await handle({ id: "O-1", state: { status: "shipped", sentAt: "t3" } });
    await expect(
      withDedup(async () => {
        throw new Error("projection store down");
      }, { client, serviceId, messageId: () => "O-2", payload: () => 1, logger })({}),
    ).rejects.toThrow("projection store down");
    expect(applied).toEqual([
      [{ status: "paid", sentAt: "t1" }, "new"],
      [{ status: "shipped", sentAt: "t3" }, "changed"],
    ]);
    expect(handle.counts).toMatchObject({ processed: 2, skipped: 1 });
    expect(logs.some((line) => line.includes(`service=${serviceId}`) && line.includes("duplicate skipped"))).toBe(true);
  });

  it("reverts the decision when the handler fails, so the redelivery runs it again", async () => {
    const serviceId = await createService(store.db);
    let attempts = 0;
    const handle = withDedup(
      async (e: { id: string; state: string }, ctx) => {
        attempts++;
        if (attempts === 2) throw new Error("projection store down");
        return `${e.state}:${ctx.decision}`;
      },
      { client, serviceId, messageId: (e) => e.id, payload: (e) => e.state, logger },
    );
    expect(await handle({ id: "O-3", state: "A" })).toMatchObject({ status: "processed", result: "A:new" });
    await expect(handle({ id: "O-3", state: "B" })).rejects.toThrow("projection store down");
    // Without the revert, B would now be a duplicate; with it, B is a change again (version 2, not 3).
    expect(await handle({ id: "O-3", state: "B" })).toMatchObject({ status: "processed", result: "B:changed" });
    expect((await client.getKey(serviceId, "O-3")).state.version).toBe(2);
    expect(handle.counts).toMatchObject({ processed: 2, failed: 1, released: 1, skipped: 0 });
  });

  it("a failed first delivery leaves no state; a revert refused because another consumer moved on is only logged", async () => {
    const serviceId = await createService(store.db);
    const failing = withDedup(async () => {
      throw new Error("boom");
    }, { client, serviceId, messageId: () => "O-4", payload: (e: { v: number }) => e.v, logger });
    await expect(failing({ v: 1 })).rejects.toThrow("boom");
    expect((await client.check({ serviceId, messageId: "O-4", payload: 1 })).decision).toBe("new");
    // The key moves on while the handler runs: the revert of its version is refused (409) and logged.
    const racing = withDedup(
      async () => {
        await client.check({ serviceId, messageId: "O-4", payload: 3 });
        throw new Error("late failure");
      },
      { client, serviceId, messageId: () => "O-4", payload: (e: { v: number }) => e.v, logger },
    );
    await expect(racing({ v: 2 })).rejects.toThrow("late failure");
    expect(racing.counts).toMatchObject({ failed: 1, released: 0 });
    expect(logs.some((line) => line.includes("could not be reverted") && line.includes("messageId=O-4") && line.includes("version=2"))).toBe(true);
    expect((await client.getKey(serviceId, "O-4")).state.version).toBe(3);
  });
});
