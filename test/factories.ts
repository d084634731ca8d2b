import { randomBytes } from "node:crypto";
import type { DbOrTx } from "@/db/types";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { checkMany, type CheckInput } from "@/lib/dedup/last-seen/check";
import { saveService } from "@/lib/services/save-service";
import type { ServiceSettingsInput } from "@/lib/validation/services";

/** A unique service id, so tests in one database never see each other's keys. */
export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

export async function createService(db: DbOrTx, settings: ServiceSettingsInput = {}, prefix = "svc"): Promise<string> {
  const id = uniqueId(prefix);
  await saveService({ db, actor: SYSTEM_ACTOR, id, input: settings });
  return id;
}

/**
 * Many checks in batches of 250, one after another, as a busy client sends them: one call of
 * thousands of keys is a statement no service sends (the API takes at most 1,000 a batch), and on
 * a loaded Citus worker it can outlast the statement timeout.
 */
export async function checkInBatches(db: DbOrTx, items: readonly CheckInput[]): Promise<void> {
  const size = 250;
  for (let from = 0; from < items.length; from += size) await checkMany(db, items.slice(from, from + size));
}
