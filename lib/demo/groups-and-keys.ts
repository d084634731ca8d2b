import type { Order } from "./orders";

type Send = (path: string, body: unknown, method?: string) => Promise<unknown>;

const begin = async (send: Send, scope: string, key: string, request: unknown) =>
  (await send(`/api/v1/idempotency/${scope}/begin`, { key, request })) as { outcome: string; attempt?: number };

const complete = (send: Send, scope: string, key: string, request: unknown, attempt: number, status: number) =>
  send(`/api/v1/idempotency/${scope}/complete`, {
    key,
    request,
    attempt,
    response: { status, body: JSON.stringify({ id: `${scope}-${key}`, status: "ok", amount: request }), headers: { "content-type": "application/json" } },
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Consumer groups with claims, duplicates and late redeliveries, and
 * idempotency keys in every state (in progress, stuck, completed, expired),
 * all through the real API, so no console page of a fresh demo is empty.
 */
export async function seedGroupsAndKeys(send: Send, orders: Order[], rnd: () => number): Promise<void> {
  const ids = orders.map((o) => o.id);
  // A short window first, so that redeliveries after it count as late; then the window an operator would set, with the reason.
  await send("/api/v1/consumer-groups/email-sender", { ttlSeconds: 2, graceSeconds: 3_600, reason: "demo: start with a short window" }, "PUT");
  await send("/api/v1/claim/batch", { items: ids.slice(0, 60).map((messageId) => ({ consumerGroup: "email-sender", messageId })) });
  await send("/api/v1/claim/batch", { items: ids.slice(0, 8).map((messageId) => ({ consumerGroup: "email-sender", messageId })) });
  await sleep(2_500);
  await send("/api/v1/claim/batch", { items: ids.slice(8, 20).map((messageId) => ({ consumerGroup: "email-sender", messageId })) });
  await send("/api/v1/consumer-groups/email-sender", { ttlSeconds: 3_600, reason: "demo: emails are resent for up to an hour" }, "PUT");
  const ledger = ids.filter(() => rnd() < 0.8).map((messageId) => ({ consumerGroup: "ledger-consumer", messageId }));
  await send("/api/v1/claim/batch", { items: [...ledger, ...ledger.filter(() => rnd() < 0.15)] });

  await send("/api/v1/idempotency-scopes/payments", { lockSeconds: 300, reason: "demo" }, "PUT");
  await send("/api/v1/idempotency-scopes/refunds", { lockSeconds: 1, reason: "demo: short locks, so a crashed worker shows as stuck" }, "PUT");
  await send("/api/v1/idempotency-scopes/webhooks", { retentionSeconds: 2, reason: "demo: keys that expire at once" }, "PUT");
  for (const [i, order] of orders.slice(0, 12).entries()) {
    const request = { order: order.id, amount: order.items[0]?.price ?? "0" };
    const started = await begin(send, "payments", `pay-${order.id}`, request);
    if (i < 8 && started.attempt) await complete(send, "payments", `pay-${order.id}`, request, started.attempt, 201);
  }
  for (const order of orders.slice(12, 15)) await begin(send, "refunds", `refund-${order.id}`, { order: order.id });
  await seedExpiredKeys(send, orders.slice(15, 18).map((order) => order.id));
}

/**
 * Completed webhook keys, expired two seconds later (the scope's retention) and present until a
 * cleanup pass removes them: the demo traffic adds a few now and then, so "Expired" is never empty.
 */
export async function seedExpiredKeys(send: Send, ids: string[]): Promise<void> {
  for (const id of ids) {
    const request = { event: "order.paid", order: id };
    const started = await begin(send, "webhooks", `hook-${id}`, request);
    if (started.attempt) await complete(send, "webhooks", `hook-${id}`, request, started.attempt, 200);
  }
}
