import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { jetstream, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { beforeAll, describe, expect, it } from "vitest";
import { createWeirClient } from "@weir/client";
import { createTestToken } from "@/test/token.fixture";
import { startTestApi } from "@/test/api-server";
import type { TestDatabase } from "@/test/test-db";
import { brokerTestContext, NATS_URL } from "./broker.fixture";
import { startConsumer, type ConsumerHooks, type DedupMode } from "./consumer";
import { ensureStream, publishOrderPaid, type OrderPaid } from "./events";
import { shipmentsPerOrder } from "./shipments";

const ACK_WAIT_MS = 800;
const ORDERS = 20;
const MAIN = path.join(import.meta.dirname, "main.ts");

const broker = brokerTestContext();
const { streams } = broker;
let store: TestDatabase;
let nats: NatsConnection;
let jsm: JetStreamManager;
beforeAll(() => {
  ({ store, nats, jsm } = broker);
});

const order = (n: number): OrderPaid => ({ orderId: `O-${String(n).padStart(3, "0")}`, amount: `${n}.50`, currency: "EUR" });

/** A fresh stream with ORDERS events, some published twice or three times by a retrying producer. */
async function publishScenario(): Promise<{ stream: string; subject: string; durable: string; published: number }> {
  const tag = randomBytes(4).toString("hex");
  const stream = `WEIR_T_${tag}`;
  const subject = `weirtest.${tag}.orders.paid`;
  streams.push(stream);
  await ensureStream(jsm, stream, subject, "shipper", ACK_WAIT_MS);
  const js = jetstream(nats);
  const retries = new Map([[2, 1], [5, 1], [11, 2], [17, 1]]);
  let published = 0;
  for (let n = 1; n <= ORDERS; n++) {
    for (let copy = 0; copy <= (retries.get(n) ?? 0); copy++) {
      await publishOrderPaid(js, subject, order(n));
      published++;
    }
  }
  return { stream, subject, durable: "shipper", published };
}

/** Runs the shipper as its own process until it exits (here: killed by its CRASH_AT). */
function runShipperProcess(env: Record<string, string>): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, NATS_URL, DATABASE_URL: store.url, ACK_WAIT_MS: String(ACK_WAIT_MS), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`shipper did not crash in time:\n${output}`));
    }, 20_000);
    child.on("exit", (_code, signal) => {
      clearTimeout(timer);
      if (signal === null) reject(new Error(`shipper exited without crashing:\n${output}`));
      else resolve({ signal, output });
    });
  });
}

/** Consumes in this process until the stream is fully acked. */
async function drain(stream: string, mode: DedupMode, hooks: ConsumerHooks = {}) {
  const connection = await connect({ servers: NATS_URL });
  const logs: string[] = [];
  const running = await startConsumer({ nats: connection, stream, durable: "shipper", pool: store.pool!, mode, hooks, name: "finisher", log: (l) => logs.push(l) });
  try {
    await expect
      .poll(async () => {
        const info = await jsm.consumers.info(stream, "shipper");
        return info.num_pending + info.num_ack_pending;
      }, { timeout: 20_000, interval: 100 })
      .toBe(0);
  } finally {
    await running.stop();
    await connection.close();
  }
  return { stats: running.stats, logs };
}

describe("NATS JetStream shipper", () => {
  it("library mode: ships each order once through redeliveries, producer retries and crashes before commit and before ack", async () => {
    await store.pool!.query("truncate example_shipments");
    const { stream, subject } = await publishScenario();
    const consumerGroup = `shipper-${randomBytes(3).toString("hex")}`;
    // One message at a time, so that each crash finds the orders before it committed; the drain below handles 16 at once.
    const base = { STREAM: stream, SUBJECT: subject, DURABLE: "shipper", DEDUP_MODE: "library", CONSUMER_GROUP: consumerGroup, IN_FLIGHT: "1" };

    const first = await runShipperProcess({ ...base, CRASH_AT: "before-commit:O-004" });
    expect(first.signal).toBe("SIGKILL");
    expect(first.output).toContain("crashing before-commit O-004");
    let shipped = await shipmentsPerOrder(store.pool!);
    expect(shipped.get("O-004")).toBeUndefined(); // rolled back with the claim

    const second = await runShipperProcess({ ...base, CRASH_AT: "before-ack:O-009" });
    expect(second.signal).toBe("SIGKILL");
    shipped = await shipmentsPerOrder(store.pool!);
    expect(shipped.get("O-004")).toBe(1);
    expect(shipped.get("O-009")).toBe(1); // committed, never acked: it comes back

    let failedOnce = false;
    const { stats, logs } = await drain(stream, { kind: "library", consumerGroup }, {
      beforeWork: (event) => {
        if (event.orderId === "O-015" && !failedOnce) {
          failedOnce = true;
          throw new Error("label printer offline");
        }
      },
    });
    shipped = await shipmentsPerOrder(store.pool!);
    expect([...shipped.keys()].sort()).toEqual(Array.from({ length: ORDERS }, (_, i) => order(i + 1).orderId));
    expect([...shipped.values()].every((n) => n === 1)).toBe(true);
    expect(stats.redelivered).toBeGreaterThan(0);
    expect(stats.failed).toBe(1);
    expect(logs.some((l) => l.includes("duplicate skipped") && l.includes("order=O-009"))).toBe(true);
  });

  it("http mode (withDedup over the API): the same guarantees for redeliveries, retries, failures and a crash before ack", async () => {
    await store.pool!.query("truncate example_shipments");
    const api = await startTestApi(async () => store);
    const token = await createTestToken(store.db);
    const consumerGroup = `shipper-${randomBytes(3).toString("hex")}`;
    const paths: string[] = [];
    const client = createWeirClient({
      baseUrl: api.url,
      token,
      fetch: (input, init) => {
        paths.push(new URL(String(input)).pathname);
        return fetch(input, init);
      },
    });
    // A crashed holder's lock frees quickly in this test; production keeps the default 90 s.
    await client.putScope(consumerGroup, { lockSeconds: 2, reason: "nats test" });
    const { stream, subject } = await publishScenario();

    const crashed = await runShipperProcess({
      STREAM: stream,
      SUBJECT: subject,
      DURABLE: "shipper",
      DEDUP_MODE: "http",
      CONSUMER_GROUP: consumerGroup,
      WEIR_URL: api.url,
      WEIR_TOKEN: token,
      CRASH_AT: "before-ack:O-006",
      // One at a time: a crash mid-handler keeps that message claimed until its window ends (withDedup's known gap).
      IN_FLIGHT: "1",
    });
    expect(crashed.signal).toBe("SIGKILL");
    expect((await shipmentsPerOrder(store.pool!)).get("O-006")).toBe(1);

    let failedOnce = false;
    const { stats, logs } = await drain(stream, { kind: "http", consumerGroup, client }, {
      beforeWork: (event) => {
        if (event.orderId === "O-012" && !failedOnce) {
          failedOnce = true;
          throw new Error("label printer offline");
        }
      },
    });
    const shipped = await shipmentsPerOrder(store.pool!);
    expect(shipped.size).toBe(ORDERS);
    expect([...shipped.values()].every((n) => n === 1)).toBe(true);
    expect(stats.skipped).toBeGreaterThanOrEqual(1);
    expect(logs.some((l) => l.includes("duplicate skipped") && l.includes("messageId=checkout/order-paid/"))).toBe(true);
    // The messages handled at once had their claims sent together.
    expect(paths).toContain("/api/v1/claim/batch");
  });
});
