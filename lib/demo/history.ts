import { rebuildRollups } from "@/db/queries/console-stats";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { DEMO_ADMIN_EMAIL } from "@/lib/auth/demo-constants";
import { checkMany, type CheckInput } from "@/lib/dedup/last-seen/check";
import { runReset } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { stats } from "@/lib/stats/recorder";
import { atDecisionTime } from "@/lib/telemetry/decision-clock";
import { seededRandom } from "../seeded-random";
import { evolve, newOrder, type Order } from "./orders";
import { DEMO_SERVICES } from "./projections";

const QUARTER = 900_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** What happened when in the demo's week, relative to the start of the day `daysAgo` days ago (UTC). */
export const HISTORY_EVENTS = {
  /** A broker's redeliveries climb for ten hours, to two per event: one trend. */
  trend: { daysAgo: 3, fromHour: 9, toHour: 19 },
  /** A consumer retries every event of the last hour eight times over, for half an hour: a spike. */
  retryStorm: { daysAgo: 5, fromHour: 14, minutes: 30 },
  /** The search index lost its last 400 orders: they are replayed (all duplicates), their keys reset, replayed again. */
  replay: { daysAgo: 1, hour: 10 },
} as const;

export const HISTORY_DAYS = 7;

/** Orders per quarter hour by hour of day (UTC): quiet nights, a morning and an afternoon peak. */
export function dailyRhythm(hourOfDay: number): number {
  const morning = Math.exp(-((hourOfDay - 10) ** 2) / 8);
  const afternoon = Math.exp(-((hourOfDay - 16) ** 2) / 10);
  return 0.6 + 4.4 * Math.max(morning, afternoon);
}

const DEMO_OPERATOR: Actor = { id: DEMO_ADMIN_EMAIL, role: "admin" };

/** Every projection's check of an order event, redelivered `redelivery` times on average (at-least-once delivery). */
function checksOf(order: Order, sentAt: string, redelivery: number, rnd: () => number): CheckInput[] {
  const items: CheckInput[] = [];
  for (const service of DEMO_SERVICES) {
    const item = { serviceId: service.id, messageId: order.id, payload: service.project(order, sentAt) };
    items.push(item);
    for (let left = redelivery; left > 0; left--) if (rnd() < left) items.push(item);
  }
  return items;
}

export interface HistorySummary {
  from: number;
  to: number;
  checks: number;
  orders: number;
}

/**
 * A week of order traffic before `now`, decided by the engine's own check (library mode, the verb
 * the API's batch check calls) with each quarter hour's decisions dated in that quarter
 * (atDecisionTime), so the stats rollup and the journal hold a week of history: a daily rhythm, a
 * redelivery trend, a retry storm, and a replay with the reset that let it through. Keys keep
 * their real first-seen times. The rollups are then rebuilt from the minutes.
 */
export async function seedHistory(db: DbOrTx, now = Date.now(), seed = 7): Promise<HistorySummary> {
  const rnd = seededRandom(seed);
  const dayStart = (daysAgo: number) => Math.floor(now / DAY) * DAY - daysAgo * DAY;
  const from = Math.floor((now - HISTORY_DAYS * DAY) / QUARTER) * QUARTER;
  const to = Math.floor(now / QUARTER) * QUARTER - HOUR;
  const { trend, retryStorm, replay } = HISTORY_EVENTS;
  const trendFrom = dayStart(trend.daysAgo) + trend.fromHour * HOUR;
  const trendTo = dayStart(trend.daysAgo) + trend.toHour * HOUR;
  const stormFrom = dayStart(retryStorm.daysAgo) + retryStorm.fromHour * HOUR;
  const replayAt = dayStart(replay.daysAgo) + replay.hour * HOUR;
  let orders: Order[] = [];
  let made = 0;
  let checks = 0;
  const decide = async (at: number, items: CheckInput[]) => {
    for (let i = 0; i < items.length; i += 500) await atDecisionTime(at, () => checkMany(db, items.slice(i, i + 500)));
    checks += items.length;
  };
  for (let t = from; t < to; t += QUARTER) {
    const at = t + Math.floor(rnd() * QUARTER);
    const sentAt = new Date(at).toISOString();
    // Redeliveries per event: 0.05, rising through the trend's ten hours to 2 (most events three times).
    const redelivery = t >= trendFrom && t < trendTo ? 0.05 + (2 * (t - trendFrom + QUARTER)) / (trendTo - trendFrom) : 0.05;
    const rhythm = dailyRhythm(new Date(t).getUTCHours());
    const count = Math.round(rhythm * (0.6 + 0.8 * rnd()));
    const fresh = Array.from({ length: count }, () => ({ ...newOrder(++made, rnd), id: `H-${String(made).padStart(5, "0")}` }));
    const moved = orders.slice(-60).filter(() => rnd() < 0.02 * rhythm).map((o) => evolve(o, rnd));
    const byId = new Map(moved.map((o) => [o.id, o]));
    orders = [...orders.map((o) => byId.get(o.id) ?? o), ...fresh];
    const items = [...fresh, ...moved].flatMap((o) => checksOf(o, sentAt, redelivery, rnd));
    if (t >= stormFrom && t < stormFrom + retryStorm.minutes * 60_000) {
      // Every event of the last hour, eight more times: the consumer's retries without backoff.
      const recent = orders.slice(-40).flatMap((o) => checksOf(o, sentAt, 0, rnd));
      for (let i = 0; i < 8; i++) items.push(...recent);
    }
    await decide(at, items);
    if (t === replayAt) {
      const index = DEMO_SERVICES.find((s) => s.id === "search-indexer")!;
      const replayed = orders.slice(-400).map((o) => ({ serviceId: index.id, messageId: o.id, payload: index.project(o, sentAt) }));
      await decide(at + 5 * 60_000, replayed);
      const reset = await startReset({
        db,
        actor: DEMO_OPERATOR,
        input: {
          selection: { kind: "last_seen", subject: index.id, mode: "list", messageIds: replayed.map((r) => r.messageId).join("\n") },
          reason: "demo: the search index lost its last orders; their keys are reset so the replay goes through",
          confirmation: index.id,
        },
      });
      await runReset(db, reset.id);
      await decide(at + 20 * 60_000, replayed);
    }
  }
  // The server's timer may be writing some of these minutes too: let its flush land before the rollups are summed.
  await stats.flush(db);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await stats.flush(db);
  await rebuildRollups(db);
  return { from, to, checks, orders: made };
}
