import { getDb } from "@/db/client";
import type { DbOrTx } from "@/db/types";
import { seededRandom } from "../seeded-random";
import { seedCompletedReset } from "./demo-reset";
import { seedExpiredKeys, seedGroupsAndKeys } from "./groups-and-keys";
import { HISTORY_DAYS, seedHistory } from "./history";
import { evolve, newOrder, type Order } from "./orders";
import { DEMO_SERVICES } from "./projections";

/**
 * Demo traffic that goes through the real HTTP API: services are registered,
 * orders are created and evolved, and every event is checked by every
 * projection (with some broker redeliveries), so the console has new, changed
 * and duplicate decisions to show. A light trickle keeps the charts moving.
 */
async function post(base: string, token: string, path: string, body: unknown, method = "POST"): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

function checksFor(orders: Order[], rnd: () => number) {
  const items = [];
  for (const order of orders) {
    const sentAt = new Date().toISOString();
    for (const service of DEMO_SERVICES) {
      const item = { serviceId: service.id, messageId: order.id, payload: service.project(order, sentAt) };
      items.push(item);
      if (rnd() < 0.1) items.push(item); // an at-least-once redelivery
    }
  }
  return items;
}

async function sendChecks(base: string, token: string, items: unknown[]): Promise<void> {
  for (let i = 0; i < items.length; i += 500) await post(base, token, "/api/v1/check/batch", { items: items.slice(i, i + 500) });
}

/**
 * `token` is the all-scopes demo token that lib/auth/bootstrap.ts creates at start; `db` the store the
 * server uses. A week of history comes first (lib/demo/history.ts), then the present's traffic.
 */
export async function seedDemo(base: string, token: string, db: DbOrTx, seed = 42): Promise<Order[]> {
  for (const service of DEMO_SERVICES) {
    const { id, displayName, ignoredPaths, includedPaths, historyDepth } = service;
    await post(base, token, `/api/v1/services/${id}`, { displayName, ignoredPaths: [...ignoredPaths], includedPaths: [...includedPaths], historyDepth }, "PUT");
  }
  const t0 = performance.now();
  const history = await seedHistory(db);
  console.log(`[weir] demo history: ${history.checks.toLocaleString("en-US")} checks over ${HISTORY_DAYS} days in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const rnd = seededRandom(seed);
  let orders = Array.from({ length: 150 }, (_, n) => newOrder(n + 1, rnd));
  await sendChecks(base, token, checksFor(orders, rnd));
  for (let round = 0; round < 4; round++) {
    orders = orders.map((order) => (rnd() < 0.7 ? evolve(order, rnd) : order));
    await sendChecks(base, token, checksFor(orders, rnd));
  }
  await seedGroupsAndKeys((path, body, method) => post(base, token, path, body, method), orders, rnd);
  await seedCompletedReset(db);
  return orders;
}

/** Every fifth tick (15 s): two more expired webhook keys, since cleanup (every minute) removes the older ones. */
export const EXPIRED_KEYS_EVERY_TICKS = 5;

export function startDemo(base: string, token: string): void {
  getDb()
    .then((db) => seedDemo(base, token, db))
    .then((orders) => {
      console.log(`[weir] demo data loaded: ${orders.length} orders checked by ${DEMO_SERVICES.length} services`);
      const rnd = seededRandom(Date.now());
      const send = (path: string, body: unknown, method?: string) => post(base, token, path, body, method);
      let tick = 0;
      const timer = setInterval(() => {
        const picked = orders.filter(() => rnd() < 0.05).map((order) => evolve(order, rnd));
        const byId = new Map(picked.map((o) => [o.id, o]));
        orders = orders.map((o) => byId.get(o.id) ?? o);
        if (picked.length > 0) sendChecks(base, token, checksFor(picked, rnd)).catch(() => undefined);
        if (++tick % EXPIRED_KEYS_EVERY_TICKS === 0) seedExpiredKeys(send, [`T${tick}-a`, `T${tick}-b`]).catch(() => undefined);
      }, 3000);
      timer.unref();
    })
    .catch((err: Error) => console.error(`[weir] demo data failed: ${err.message}`));
}
