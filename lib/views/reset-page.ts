import { listGroupIds } from "@/db/queries/console-groups";
import { listMatchingKeyIds } from "@/db/queries/console-keys";
import { listServiceLabels } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { MAX_LIST_IDS } from "@/lib/reset/constants";
import { resetRetentionDays } from "@/lib/reset/retention-days";
import type { SearchParams } from "@/lib/validation/console-common";
import { keyBrowserQuerySchema } from "@/lib/validation/console-keys";
import { listResets } from "@/lib/reset/progress";

/** What the reset page offers: known services and groups to pick from, and the latest resets. */
export async function loadResetPage(db: DbOrTx) {
  const [services, groups, resets] = await Promise.all([listServiceLabels(db), listGroupIds(db), listResets(db, { limit: 30 })]);
  return { services: services.map((s) => s.id), groups, resets, retentionDays: resetRetentionDays() };
}

/**
 * The key browser's filter as a reset selection. Prefix and times are the reset's own filter; a
 * version filter is not, so those keys are resolved here into a list (at most MAX_LIST_IDS), and the
 * preview then shows exactly the keys the browser showed. Null when the filter has no version bound.
 */
export async function keyBrowserSelection(db: DbOrTx, serviceId: string, params: SearchParams): Promise<{ ids: string[]; tooMany: boolean; minVersion: number } | null> {
  const parsed = keyBrowserQuerySchema.safeParse(params);
  if (!parsed.success || (parsed.data.minVersion ?? 1) <= 1) return null;
  const q = parsed.data;
  const ids = await listMatchingKeyIds(db, { serviceId, prefix: q.prefix, changedFrom: q.from, changedTo: q.to, minVersion: q.minVersion }, MAX_LIST_IDS + 1);
  return { ids: ids.slice(0, MAX_LIST_IDS), tooMany: ids.length > MAX_LIST_IDS, minVersion: q.minVersion! };
}
