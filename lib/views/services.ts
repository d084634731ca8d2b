import { serviceKeyCounts } from "@/db/queries/console-key-counts";
import { serviceActivity } from "@/db/queries/console-service-list";
import { rolledSpans, statsBetween, type Counters } from "@/db/queries/console-stats";
import { listServices } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";

export interface ServiceListItem {
  id: string;
  displayName: string;
  ignoredPaths: string[];
  historyDepth: number;
  checks24h: number;
  duplicates24h: number;
  /** Checks and duplicates of the 24 hours before those, which the list compares with. */
  previous24h: Pick<Counters, "checks" | "duplicates">;
  /** Duplicate share per hour of the last 24 h, oldest first (null: no checks that hour). */
  duplicateRates: (number | null)[];
  lastActivity: string | null;
  keys: number;
  /** False: `keys` is an estimate (statistics or a sample), shown with "≈" (db/queries/console-key-counts.ts). */
  keysExact: boolean;
}

export const SERVICE_SORTS = ["name", "checks", "duplicates", "activity", "keys"] as const;
export type ServiceSort = (typeof SERVICE_SORTS)[number];

const HOUR = 3_600_000;

/** Registered services with key counts, last activity and their last 24 h hour by hour (from the rollup). */
export async function loadServiceList(db: DbOrTx, now = Date.now()): Promise<ServiceListItem[]> {
  const firstHour = Math.floor(now / HOUR) * HOUR - 23 * HOUR;
  const [services, rolled] = await Promise.all([listServices(db), rolledSpans(db)]);
  const ids = services.map((s) => s.id);
  const [rows, counts, before] = await Promise.all([
    serviceActivity(db, ids, new Date(firstHour), rolled),
    serviceKeyCounts(db, ids),
    statsBetween(db, { kind: "service", since: new Date(firstHour - 24 * HOUR), rolled }, new Date(firstHour)),
  ]);
  const beforeById = new Map(before.map((b) => [b.subject, b]));
  const activity = new Map(rows.map((a) => [a.serviceId, a]));
  const keys = new Map(counts.map((c) => [c.serviceId, c]));
  return services.map((s) => {
    const a = activity.get(s.id);
    const byHour = new Map((a?.hours ?? []).map((h) => [h.t, h]));
    const hours = Array.from({ length: 24 }, (_, i) => byHour.get(firstHour + i * HOUR));
    return {
      id: s.id,
      displayName: s.displayName,
      ignoredPaths: s.ignoredPaths,
      historyDepth: s.historyDepth,
      checks24h: hours.reduce((sum, h) => sum + (h?.checks ?? 0), 0),
      duplicates24h: hours.reduce((sum, h) => sum + (h?.duplicates ?? 0), 0),
      previous24h: { checks: beforeById.get(s.id)?.checks ?? 0, duplicates: beforeById.get(s.id)?.duplicates ?? 0 },
      duplicateRates: hours.map((h) => (h && h.checks > 0 ? h.duplicates / h.checks : null)),
      lastActivity: a?.lastActivity?.toISOString() ?? null,
      keys: keys.get(s.id)?.keys ?? 0,
      keysExact: keys.get(s.id)?.exact ?? true,
    };
  });
}

/** The services whose id or name contains `query` (case-insensitive), in the chosen order. */
export function searchServices(items: ServiceListItem[], query: string, sort: ServiceSort): ServiceListItem[] {
  const needle = query.trim().toLowerCase();
  const found = needle ? items.filter((s) => s.id.toLowerCase().includes(needle) || s.displayName.toLowerCase().includes(needle)) : [...items];
  const by: Record<ServiceSort, (a: ServiceListItem, b: ServiceListItem) => number> = {
    name: (a, b) => a.displayName.localeCompare(b.displayName),
    checks: (a, b) => b.checks24h - a.checks24h,
    duplicates: (a, b) => b.duplicates24h / Math.max(b.checks24h, 1) - a.duplicates24h / Math.max(a.checks24h, 1),
    activity: (a, b) => (b.lastActivity ?? "").localeCompare(a.lastActivity ?? ""),
    keys: (a, b) => b.keys - a.keys,
  };
  return found.sort((a, b) => by[sort](a, b) || a.id.localeCompare(b.id));
}
