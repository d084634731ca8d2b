import { auditBy } from "@/db/queries/audit";
import { findService, upsertService, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive } from "@/lib/auth/recent-sign-in";
import { compilePathFilter } from "@/lib/dedup/canonical/path-filter";
import { serviceSettingsSchema, type ServiceSettingsInput } from "@/lib/validation/services";
import { serviceIdSchema } from "@/lib/validation/common";
import { storedHashSettings } from "./hash-settings";
import { serviceConfigs } from "./service-config";

export interface SaveServiceResult {
  service: ServiceRow;
  created: boolean;
}

/**
 * Registers a service or replaces its settings, with an audit row in the same
 * transaction. Changing the ignored or included paths is a new hash version: stored
 * hashes keep the version they were made under and are compared under it (see decide.ts).
 */
export async function saveService({
  db,
  actor,
  id,
  input,
}: {
  db: DbOrTx;
  actor: Actor;
  id: string;
  input: ServiceSettingsInput;
}): Promise<SaveServiceResult> {
  const serviceId = serviceIdSchema.parse(id);
  authorize(actor, "admin", { kind: "services", id: serviceId });
  // Hash settings change every later decision of the service: the same guard as resets and TTL edits.
  await guardDestructive(actor, db);
  const settings = serviceSettingsSchema.parse(input);
  const hashSettings = storedHashSettings(settings);
  compilePathFilter(hashSettings);
  const result = await db.transaction(async (tx) => {
    const before = await findService(tx, serviceId);
    const saved = await upsertService(tx, serviceId, {
      displayName: settings.displayName ?? before?.displayName ?? serviceId,
      ...hashSettings,
      historyDepth: settings.historyDepth,
    });
    await auditBy(tx, actor, {
      action: saved.created ? "service.create" : "service.update",
      target: `service:${serviceId}`,
      affected: 1,
      details: {
        before: before ? auditedSettings(before) : null,
        after: auditedSettings(saved.row),
      },
    });
    return { service: saved.row, created: saved.created };
  });
  serviceConfigs.invalidate(serviceId);
  return result;
}

const auditedSettings = (row: ServiceRow) => ({
  displayName: row.displayName,
  ignoredPaths: row.ignoredPaths,
  includedPaths: row.includedPaths,
  hashVersion: row.hashVersion,
  historyDepth: row.historyDepth,
});
