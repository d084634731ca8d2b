import { randomBytes } from "node:crypto";
import { AckPolicy, DeliverPolicy, jetstream, type JetStreamManager } from "@nats-io/jetstream";
import { nanos, type NatsConnection } from "@nats-io/transport-node";
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { previewReplayReset, startReplayReset } from "@/lib/replay/replay-reset";
import { runReset } from "@/lib/reset/run-reset";
import type { TestDatabase } from "@/test/test-db";
import { brokerTestContext } from "./broker.fixture";
import { startConsumer, type ConsumerStats } from "./consumer";
import { IDEMPOTENCY_HEADER, ensureStream, publishOrderPaid } from "./events";
import { shipmentsPerOrder } from "./shipments";

const ORDERS = 20;
const broker = brokerTestContext();
const { streams } = broker;
let store: TestDatabase;
let nats: NatsConnection;
let jsm: JetStreamManager;
beforeAll(() => {
  ({ store, nats, jsm } = broker);
});

const orderId = (n: number) => `R-${String(n).padStart(3, "0")}`;

/** Runs the library-mode shipper on `durable` until it has taken every message of the stream. */
async function consumeAll(stream: string, durable: string, consumerGroup: string): Promise<ConsumerStats> {
  const running = await startConsumer({ nats, stream, durable, pool: store.pool!, mode: { kind: "library", consumerGroup }, name: durable, log: () => undefined });
  try {
    await expect
      .poll(async () => {
        const info = await jsm.consumers.info(stream, durable);
        return info.num_pending + info.num_ack_pending;
      }, { timeout: 20_000, interval: 100 })
      .toBe(0);
  } finally {
    await running.stop();
  }
  return running.stats;
}

describe("replay-aware reset from a JetStream range", () => {
  it("resets exactly the keys of a sequence range: a replay processes those again and skips every other", async () => {
    const tag = randomBytes(4).toString("hex");
    const stream = `WEIR_R_${tag}`;
    const subject = `weirtest.${tag}.orders.paid`;
    const group = `shipper-${tag}`;
    streams.push(stream);
    await ensureStream(jsm, stream, subject, "shipper", 800);
    const js = jetstream(nats);
    for (let n = 1; n <= ORDERS; n++) {
      await publishOrderPaid(js, subject, { orderId: orderId(n), amount: `${n}.00`, currency: "EUR" });
      // A time range is given in milliseconds: 2 ms apart, each message's store time falls in a millisecond of its own.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await store.pool!.query("delete from example_shipments");
    expect(await consumeAll(stream, "shipper", group)).toMatchObject({ shipped: ORDERS, skipped: 0 });
    const shipperBefore = await jsm.consumers.info(stream, "shipper");

    // Sequences 6..12: orders R-006..R-012.
    const range = { kind: "window" as const, subject: group, stream, fromSeq: 6, toSeq: 12, idFrom: { header: IDEMPOTENCY_HEADER } };
    const preview = await previewReplayReset({ db: store.db, actor: SYSTEM_ACTOR, nats: (work) => work(nats), input: range });
    expect(preview).toMatchObject({ messages: 7, idCount: 7, count: 7, missing: 0, withoutId: 0, firstSeq: 6, lastSeq: 12, parts: 1 });

    // The same range by time (from the 6th message's store time to the 13th's), and ids read from the payload.
    const at = async (seq: number) => (await jsm.streams.getMessage(stream, { seq }))!.time;
    const byTime = await previewReplayReset({
      db: store.db,
      actor: SYSTEM_ACTOR,
      nats: (work) => work(nats),
      input: { kind: "window", subject: group, stream, from: (await at(6)).toISOString(), to: (await at(13)).toISOString(), idFrom: { path: "/orderId" } },
    });
    expect(byTime).toMatchObject({ messages: 7, idCount: 7, count: 0, missing: 7, firstSeq: 6, lastSeq: 12 });
    await expect(previewReplayReset({ db: store.db, actor: SYSTEM_ACTOR, nats: (work) => work(nats), input: { ...range, stream: `NO_${tag}` } })).rejects.toThrow(/does not exist/);

    const [reset, ...more] = await startReplayReset({ db: store.db, actor: SYSTEM_ACTOR, nats: (work) => work(nats), input: { range, reason: "replay after the carrier outage" } });
    expect(more).toEqual([]);
    expect(reset).toMatchObject({ mode: "list", planned: 7, messageIdCount: 7 });
    expect(reset!.reason).toContain(`JetStream ${stream} seq 6..12`);
    await runReset(store.db, reset!.id);

    // Reading the range moved no durable consumer of the stream.
    const shipperAfter = await jsm.consumers.info(stream, "shipper");
    expect(shipperAfter.delivered.stream_seq).toBe(shipperBefore.delivered.stream_seq);
    expect(shipperAfter.ack_floor.stream_seq).toBe(shipperBefore.ack_floor.stream_seq);

    // The replay: a new durable consumer redelivers the whole stream.
    await jsm.consumers.add(stream, { durable_name: "replayer", ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: nanos(800) });
    expect(await consumeAll(stream, "replayer", group)).toMatchObject({ shipped: 7, skipped: ORDERS - 7, failed: 0 });
    const shipped = await shipmentsPerOrder(store.pool!);
    for (let n = 1; n <= ORDERS; n++) expect(shipped.get(orderId(n)), orderId(n)).toBe(n >= 6 && n <= 12 ? 2 : 1);
  });
});
