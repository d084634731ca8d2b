import { listGroupIds } from "@/db/queries/console-groups";
import { listServices } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { resetRetentionDays } from "@/lib/reset/constants";
import { listResets } from "@/lib/reset/progress";

/** What the reset page offers: known services and groups to pick from, and the latest resets. */
export async function loadResetPage(db: DbOrTx) {
  const [services, groups, resets] = await Promise.all([listServices(db), listGroupIds(db), listResets(db, { limit: 30 })]);
  return { services: services.map((s) => s.id), groups, resets, retentionDays: resetRetentionDays() };
}
