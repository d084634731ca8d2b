import { drizzle } from "drizzle-orm/node-postgres";
import type { ConsumerMessages, JsMsg } from "@nats-io/jetstream";
import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type pg from "pg";
import * as schema from "@/db/schema";
import { claim } from "@/lib/dedup/window/claim";
import { WeirClientError, requestIdFrom, withRequestId, DedupInProgressError, DedupMismatchError, withDedup, type WeirClient } from "@weir/client";
import { IDEMPOTENCY_HEADER, type OrderPaid } from "./events";
import { insertShipment, insertShipmentTx } from "./shipments";

/**
 * How the consumer asks weir "have I done this already?":
 * - library: a window claim inside the consumer's own PostgreSQL transaction,
 *   committed with the shipment row (exactly once even if it crashes anywhere);
 * - http: `withDedup` over the API (idempotency key locked while the handler
 *   runs, released on failure, completed on success).
 */
export type DedupMode = { kind: "library"; consumerGroup: string } | { kind: "http"; consumerGroup: string; client: WeirClient };

/** Test and demo seams: called at the moments a real process could die. */
export interface ConsumerHooks {
  /** Library mode: after the shipment row is written, before the transaction commits. */
  beforeCommit?(event: OrderPaid, messageId: string): Promise<void> | void;
  /** After the side effect is durable, before the message is acked. */
  beforeAck?(event: OrderPaid, messageId: string): Promise<void> | void;
  /** Before the side effect: throw to simulate a transient failure (the message is nak'd and redelivered). */
  beforeWork?(event: OrderPaid, messageId: string, deliveryCount: number): Promise<void> | void;
}

export interface ConsumerOptions {
  nats: NatsConnection;
  stream: string;
  durable: string;
  /** The consumer's own database (library mode: the one weir's tables live in). */
  pool: pg.Pool;
  mode: DedupMode;
  name?: string;
  hooks?: ConsumerHooks;
  log?: (line: string) => void;
  /**
   * Messages handled at once (default 16). In http mode their claims, made together, travel to
   * weir as one batch request (the client's coalescing); 1 handles them one after another.
   */
  inFlight?: number;
}

export interface ConsumerStats {
  shipped: number;
  skipped: number;
  redelivered: number;
  failed: number;
}

interface Delivery {
  event: OrderPaid;
  /** The producer's idempotency key: the same for redeliveries and producer retries. */
  messageId: string;
}

export interface RunningConsumer {
  stats: ConsumerStats;
  /** Stops pulling; messages in flight are finished first. */
  stop(): Promise<void>;
  done: Promise<void>;
}

/** Pulls order-paid events and ships each order exactly once. */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  const name = options.name ?? "shipper";
  const log = options.log ?? ((line: string) => console.log(line));
  const stats: ConsumerStats = { shipped: 0, skipped: 0, redelivered: 0, failed: 0 };
  const hooks = options.hooks ?? {};
  const db = drizzle({ client: options.pool, schema });

  const viaApi =
    options.mode.kind === "http"
      ? withDedup(async (d: Delivery) => insertShipment(options.pool, d.event, d.messageId, name), {
          client: options.mode.client,
          consumerGroup: options.mode.consumerGroup,
          messageId: (d) => d.messageId,
          request: (d) => d.event,
          logger: { info: log, warn: log },
        })
      : undefined;

  const ship = async ({ event, messageId }: Delivery): Promise<"shipped" | "skipped"> => {
    if (viaApi) return (await viaApi({ event, messageId })).status === "processed" ? "shipped" : "skipped";
    const { consumerGroup } = options.mode;
    return db.transaction(async (tx) => {
      const claimed = await claim(tx, { consumerGroup, messageId });
      if (claimed.decision === "duplicate") {
        log(`[weir] duplicate skipped: consumerGroup=${consumerGroup} messageId=${messageId} order=${event.orderId}`);
        return "skipped";
      }
      await insertShipmentTx(tx, event, messageId, name);
      await hooks.beforeCommit?.(event, messageId);
      return "shipped";
    });
  };

  const handle = async (m: JsMsg): Promise<void> => {
    const messageId = m.headers?.get(IDEMPOTENCY_HEADER);
    if (!messageId) return void m.term("no idempotency-key header: cannot be deduplicated");
    const event = m.json<OrderPaid>();
    if (m.redelivered) stats.redelivered++;
    try {
      await hooks.beforeWork?.(event, messageId, m.info.deliveryCount);
      const result = await withRequestId(requestIdFrom(m.headers), () => ship({ event, messageId }));
      stats[result === "shipped" ? "shipped" : "skipped"]++;
      await hooks.beforeAck?.(event, messageId);
      m.ack();
    } catch (err) {
      stats.failed++;
      if (err instanceof DedupMismatchError) return void m.term(err.message);
      // weir down, in progress elsewhere, or our own failure: no ack, the broker redelivers.
      const delay = err instanceof DedupInProgressError ? Math.max(100, Date.parse(err.lockedUntil) - Date.now()) : err instanceof WeirClientError ? 1000 : 200;
      log(`[shipper] ${event.orderId} not handled (${(err as Error).message}); redelivery in ${delay} ms`);
      m.nak(delay);
    }
  };

  const inFlight = Math.max(1, options.inFlight ?? 16);
  const consumer = await jetstream(options.nats).consumers.get(options.stream, options.durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: Math.max(20, inFlight) });
  const done = (async () => {
    const handling = new Set<Promise<void>>();
    for await (const m of messages) {
      const one: Promise<void> = handle(m)
        .catch((err: Error) => log(`[shipper] message ${m.seq} not handled: ${err.message}`))
        .finally(() => handling.delete(one));
      handling.add(one);
      if (handling.size >= inFlight) await Promise.race(handling);
    }
    await Promise.all(handling);
  })();
  return {
    stats,
    done,
    async stop() {
      await messages.close();
      await done;
    },
  };
}
