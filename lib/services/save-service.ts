import { auditBy } from "@/db/queries/audit";
import { findService, upsertService, type ServiceRow } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { guardDestructive, requireRecentSignIn } from "@/lib/auth/recent-sign-in";
import { compilePathFilter } from "@/lib/dedup/canonical/path-filter";
import { serviceSettingsSchema, type ServiceSettingsInput } from "@/lib/validation/services";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { serviceIdSchema } from "@/lib/validation/common";
import { RECOMMENDED_NORMALISE, startsNewHashVersion, storedHashSettings } from "./hash-settings";
import { serviceConfigs } from "./service-config";

export interface SaveServiceResult {
  service: ServiceRow;
  created: boolean;
  /** The hash settings version before this save; null when it registered the service. */
  previousHashVersion: number | null;
}

/**
 * Only what an editor saw may be saved: the service must exist and still be as it was when
 * read (its `updatedAt`, ISO 8601), so a preview made before someone else's save cannot be
 * confirmed over it. Without it (the API's PUT) the settings are simply replaced.
 */
export interface SaveServiceIfUnchanged {
  updatedAt: string;
}

/**
 * Registers a service or replaces its settings, with an audit row in the same transaction;
 * saving the settings it has writes nothing. Changing the ignored or included paths or the normalisations is a new
 * hash version: stored hashes keep the version they were made under and are compared under it
 * (see decide.ts).
 */
export async function saveService({
  db,
  actor,
  id,
  input,
  ifUnchanged,
}: {
  db: DbOrTx;
  actor: Actor;
  id: string;
  input: ServiceSettingsInput;
  ifUnchanged?: SaveServiceIfUnchanged;
}): Promise<SaveServiceResult> {
  const serviceId = serviceIdSchema.parse(id);
  authorize(actor, "admin", { kind: "services", id: serviceId });
  requireRecentSignIn(actor);
  const settings = serviceSettingsSchema.parse(input);
  const current = await findService(db, serviceId);
  // Not named: a new service gets the recommended set, an existing one keeps what it has.
  const normalise = settings.normalise ?? current?.normalise ?? RECOMMENDED_NORMALISE;
  const hashSettings = storedHashSettings({ ...settings, normalise });
  compilePathFilter(hashSettings);
  // Changed hash settings change every later decision of the service: the same guard as resets and
  // TTL edits, before the transaction as theirs is. Registering a service, or saving the settings it
  // has (a provisioning script run again), changes no decision and spends none of the actor's budget.
  if (current && changesDecisions(current, { ...hashSettings, historyDepth: settings.historyDepth })) await guardDestructive(actor, db);
  const result = await db.transaction(async (tx) => {
    // Read again, locked, when it must be unchanged, so that no save slips in between this read and the write.
    const before = ifUnchanged ? await findService(tx, serviceId, { lock: true }) : current;
    if (ifUnchanged) refuseIfChanged(serviceId, before, ifUnchanged);
    const next = { displayName: settings.displayName ?? before?.displayName ?? serviceId, ...hashSettings, historyDepth: settings.historyDepth };
    // Saving what is stored (a provisioning script run again) writes nothing: no audit row, no new updatedAt.
    if (before && before.displayName === next.displayName && !changesDecisions(before, next)) {
      return { service: before, created: false, previousHashVersion: before.hashVersion };
    }
    const saved = await upsertService(tx, serviceId, next);
    await auditBy(tx, actor, {
      action: saved.created ? "service.create" : "service.update",
      target: `service:${serviceId}`,
      affected: 1,
      details: {
        before: before ? auditedSettings(before) : null,
        after: auditedSettings(saved.row),
      },
    });
    return { service: saved.row, created: saved.created, previousHashVersion: before?.hashVersion ?? null };
  });
  serviceConfigs.invalidate(serviceId);
  return result;
}

function changesDecisions(
  before: ServiceRow,
  next: { ignoredPaths: string[]; includedPaths: string[]; normalise: string[]; historyDepth: number },
): boolean {
  return startsNewHashVersion(before, next) || before.historyDepth !== next.historyDepth;
}

function refuseIfChanged(serviceId: string, before: ServiceRow | undefined, expected: SaveServiceIfUnchanged): void {
  if (!before) throw new NotFoundError(`service "${serviceId}" is not registered`, "serviceId");
  if (before.updatedAt.toISOString() !== expected.updatedAt) {
    throw new ConflictError(`the settings of "${serviceId}" were changed since they were read: read them again to see what saving does now`);
  }
}

const auditedSettings = (row: ServiceRow) => ({
  displayName: row.displayName,
  ignoredPaths: row.ignoredPaths,
  includedPaths: row.includedPaths,
  normalise: row.normalise,
  hashVersion: row.hashVersion,
  historyDepth: row.historyDepth,
});
