import { serviceKeyCounts } from "@/db/queries/console-key-counts";
import { serviceActivity } from "@/db/queries/console-service-list";
import { rolledSpans, statsBetween, type Counters, type RolledSpan } from "@/db/queries/console-stats";
import { listServices, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { pageSlice } from "./page-slice";

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

/** One page of the list, with the counts its heading gives. */
export interface ServiceListPage {
  shown: ServiceListItem[];
  /** Services registered, and those the search matched. */
  total: number;
  matched: number;
  pageNumber: number;
  pages: number;
  firstIndex: number;
}

const HOUR = 3_600_000;

type Named = Pick<ServiceRow, "id" | "displayName">;

/** The services whose id or name contains `query` (case-insensitive). */
const matching = <T extends Named>(items: readonly T[], query: string): T[] => {
  const needle = query.trim().toLowerCase();
  return needle ? items.filter((s) => s.id.toLowerCase().includes(needle) || s.displayName.toLowerCase().includes(needle)) : [...items];
};

const byName = (a: Named, b: Named) => a.displayName.localeCompare(b.displayName) || a.id.localeCompare(b.id);

/** Each order; ties go by id, so a page holds the same services on every view. */
const BY: Record<ServiceSort, (a: ServiceListItem, b: ServiceListItem) => number> = {
  name: byName,
  checks: (a, b) => b.checks24h - a.checks24h,
  duplicates: (a, b) => b.duplicates24h / Math.max(b.checks24h, 1) - a.duplicates24h / Math.max(a.checks24h, 1),
  activity: (a, b) => (b.lastActivity ?? "").localeCompare(a.lastActivity ?? ""),
  keys: (a, b) => b.keys - a.keys,
};

/** Key counts, last activity and the last 24 h hour by hour (from the rollups) of `services`, in their order. */
async function withFigures(db: DbOrTx, services: readonly ServiceRow[], rolled: readonly RolledSpan[], now: number): Promise<ServiceListItem[]> {
  if (services.length === 0) return [];
  const firstHour = Math.floor(now / HOUR) * HOUR - 23 * HOUR;
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

/**
 * One page of the services list, searched and sorted over every service before it is cut. In name
 * order the figures are read for the page's services only: each one costs a probe for its last
 * activity and a bounded walk of its keys, so at 100 services reading them for all four pages was
 * most of the list's statements (docs/performance-console.md). Ordering by a figure needs it for
 * every matched service, and reads them all.
 */
export async function loadServicePage(
  db: DbOrTx,
  query: { q: string; sort: ServiceSort; page: unknown },
  perPage: number,
  now = Date.now(),
): Promise<ServiceListPage> {
  const [services, rolled] = await Promise.all([listServices(db), rolledSpans(db)]);
  const matched = matching(services, query.q);
  const counts = { total: services.length, matched: matched.length };
  if (query.sort === "name") {
    const page = pageSlice(matched.sort(byName), query.page, perPage);
    return { ...page, ...counts, shown: await withFigures(db, page.shown, rolled, now) };
  }
  const ordered = (await withFigures(db, matched, rolled, now)).sort((a, b) => BY[query.sort](a, b) || a.id.localeCompare(b.id));
  return { ...pageSlice(ordered, query.page, perPage), ...counts };
}
