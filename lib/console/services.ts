import { statsBySubject } from "@/db/queries/console-stats";
import { listServices } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";

export interface ServiceListItem {
  id: string;
  displayName: string;
  ignoredPaths: string[];
  historyDepth: number;
  checks24h: number;
  duplicates24h: number;
}

/** Registered services with their last 24 h of checks (from the rollup). */
export async function loadServiceList(db: DbOrTx, now = Date.now()): Promise<ServiceListItem[]> {
  const since = new Date(Math.floor((now - 86_400_000) / 60_000) * 60_000);
  const [services, totals] = await Promise.all([listServices(db), statsBySubject(db, { kind: "service", since, hourlyUntil: null })]);
  const byId = new Map(totals.map((t) => [t.subject, t]));
  return services.map((s) => ({
    id: s.id,
    displayName: s.displayName,
    ignoredPaths: s.ignoredPaths,
    historyDepth: s.historyDepth,
    checks24h: byId.get(s.id)?.checks ?? 0,
    duplicates24h: byId.get(s.id)?.duplicates ?? 0,
  }));
}
