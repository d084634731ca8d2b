import { randomBytes } from "node:crypto";
import type { DbOrTx } from "@/db/types";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { saveService } from "@/lib/services/save-service";
import type { ServiceSettingsInput } from "@/lib/validation/services";

/** A unique service id, so tests in one database never see each other's keys. */
export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

export async function createService(db: DbOrTx, settings: ServiceSettingsInput = {}, prefix = "svc"): Promise<string> {
  const id = uniqueId(prefix);
  await saveService({ db, actor: SYSTEM_ACTOR, id, input: settings });
  return id;
}
