import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { ensureShipmentsTable } from "./shipments";

export const NATS_URL = process.env.NATS_URL ?? "127.0.0.1:4222";

export interface Broker {
  store: TestDatabase;
  nats: NatsConnection;
  jsm: JetStreamManager;
  /** Streams a test made: deleted after the file. */
  streams: string[];
}

/** A test file's own database (with the shipments table) and a JetStream connection, ready in beforeAll. */
export function brokerTestContext(): Broker {
  const broker = { streams: [] as string[] } as unknown as Broker;
  beforeAll(async () => {
    broker.store = await createTestDatabase();
    await ensureShipmentsTable(broker.store.pool!);
    broker.nats = await connect({ servers: NATS_URL }).catch((err: Error) => {
      throw new Error(`this test needs nats-server with JetStream (-js) at ${NATS_URL} (set NATS_URL): ${err.message}`);
    });
    broker.jsm = await jetstreamManager(broker.nats);
  });
  afterAll(async () => {
    for (const stream of broker.streams) await broker.jsm.streams.delete(stream).catch(() => undefined);
    await broker.nats.close();
  });
  return broker;
}
