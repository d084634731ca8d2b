import { keysFor, type WeirClient, type CheckRequest, type ClaimRequest } from "@weir/client";
import { evolve, newOrder, total, type Order } from "@/lib/demo/orders";
import { seededRandom } from "@/lib/seeded-random";
import { DEMO_SERVICES } from "@/lib/demo/projections";

export interface SimulationOptions {
  orders: number;
  rounds: number;
  /** Share of deliveries the broker delivers twice. */
  redelivery: number;
  /** Share of charges the producer sends again after a lost answer. */
  producerRetry: number;
  seed: number;
  consumerGroup: string;
  scope: string;
  batchSize: number;
  /** Register the demo services and the consumer group first (needs an admin token). */
  setup: boolean;
}

export interface SimulationTally {
  checks: Record<"new" | "changed" | "duplicate", number>;
  claims: Record<"new" | "duplicate" | "late", number>;
  begins: Record<"started" | "completed" | "in_progress" | "mismatch", number>;
  events: number;
}

const chunks = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Realistic traffic through the API, as a pipeline produces it: orders are
 * created and evolve; each event is projected by every demo service (some
 * projections change, others do not), delivered to a mailer consumer group,
 * and charged by a billing producer with deterministic idempotency keys. A
 * share of deliveries is redelivered and a share of charges is retried.
 */
export async function simulateTraffic(client: WeirClient, options: SimulationOptions, onProgress: (events: number, tally: SimulationTally) => void = () => {}): Promise<SimulationTally> {
  const tally: SimulationTally = {
    checks: { new: 0, changed: 0, duplicate: 0 },
    claims: { new: 0, duplicate: 0, late: 0 },
    begins: { started: 0, completed: 0, in_progress: 0, mismatch: 0 },
    events: 0,
  };
  if (options.setup) {
    for (const { id, displayName, ignoredPaths, historyDepth } of DEMO_SERVICES) {
      await client.putService(id, { displayName, ignoredPaths: [...ignoredPaths], historyDepth });
    }
    await client.putConsumerGroup(options.consumerGroup, { ttlSeconds: 3600, reason: "weir simulate: demo mailer window" });
  }
  const rnd = seededRandom(options.seed);
  const key = keysFor("simulator");
  let orders: Order[] = Array.from({ length: options.orders }, (_, n) => newOrder(n + 1, rnd));
  for (let round = 0; round < options.rounds; round++) {
    if (round > 0) orders = orders.map((order) => (rnd() < 0.7 ? evolve(order, rnd) : order));
    const sentAt = new Date().toISOString();
    const checks: CheckRequest[] = [];
    const claims: ClaimRequest[] = [];
    const charges: { key: string; request: unknown }[] = [];
    for (const order of orders) {
      for (const service of DEMO_SERVICES) {
        const item = { serviceId: service.id, messageId: order.id, payload: service.project(order, sentAt) };
        checks.push(item);
        if (rnd() < options.redelivery) checks.push(item);
      }
      const event = { consumerGroup: options.consumerGroup, messageId: `${order.id}@${order.status}#${round}` };
      claims.push(event);
      if (rnd() < options.redelivery) claims.push(event);
      const charge = { order: order.id, amount: total(order), currency: order.currency };
      charges.push({ key: key("charge", charge), request: charge });
      if (rnd() < options.producerRetry) charges.push({ key: key("charge", charge), request: charge });
    }
    for (const part of chunks(checks, options.batchSize)) {
      for (const result of await client.checkBatch(part)) tally.checks[result.decision]++;
    }
    for (const part of chunks(claims, options.batchSize)) {
      for (const result of await client.claimBatch(part)) {
        tally.claims[result.decision]++;
        if (result.lateRedelivery) tally.claims.late++;
      }
    }
    for (const charge of charges) {
      const begun = await client.begin(options.scope, { key: charge.key, request: charge.request });
      tally.begins[begun.outcome]++;
      if (begun.outcome === "started") {
        await client.complete(options.scope, { key: charge.key, request: charge.request, attempt: begun.attempt, response: { status: 201, body: JSON.stringify({ charged: charge.request }) } });
      }
    }
    tally.events += orders.length;
    onProgress(tally.events, tally);
  }
  return tally;
}
