import { headers as natsHeaders } from "@nats-io/transport-node";
import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import { AckPolicy, DeliverPolicy } from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { keysFor, requestIdHeaders } from "@weir/client";

/** What the checkout service publishes when an order is paid. */
export interface OrderPaid {
  orderId: string;
  amount: string;
  currency: string;
}

export const IDEMPOTENCY_HEADER = "idempotency-key";

const checkoutKey = keysFor("checkout");

/** The idempotency key of an event: the same for every retry of the same business fact. */
export const eventKey = (event: OrderPaid) => checkoutKey("order-paid", event);

/**
 * Publishes an event with its idempotency key. A producer that did not get its
 * publish ack (timeout, crash, restart) publishes again: JetStream then stores
 * a second message with the same key, which weir recognises downstream.
 * (JetStream's own Nats-Msg-Id dedup only covers its duplicate window.)
 */
export async function publishOrderPaid(js: JetStreamClient, subject: string, event: OrderPaid): Promise<void> {
  const headers = natsHeaders();
  headers.set(IDEMPOTENCY_HEADER, eventKey(event));
  for (const [name, value] of Object.entries(requestIdHeaders())) headers.set(name, value);
  await js.publish(subject, JSON.stringify(event), { headers });
}

/** The stream and a durable pull consumer; a message not acked within `ackWaitMs` is redelivered. */
export async function ensureStream(jsm: JetStreamManager, stream: string, subject: string, durable: string, ackWaitMs: number): Promise<void> {
  await jsm.streams.add({ name: stream, subjects: [subject] });
  await jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    max_deliver: -1,
  });
}
