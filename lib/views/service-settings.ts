import { listKeysPage } from "@/db/queries/console-keys";
import { listKeyVersions } from "@/db/queries/keys";
import { findService } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { compilePathFilter, type HashSettings } from "@/lib/dedup/canonical/path-filter";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { NotFoundError } from "@/lib/errors";
import { startsNewHashVersion, storedHashSettings } from "@/lib/services/hash-settings";
import { serviceIdSchema } from "@/lib/validation/common";
import { serviceSettingsSchema, type ServiceSettingsInput } from "@/lib/validation/services";
import { serviceSummary, type ServiceSummary } from "./service-summary";

/** A service's settings as the settings page edits them; `updatedAt` tells a stale preview from a fresh one. */
export interface ServiceSettingsView extends ServiceSummary {
  updatedAt: string;
}

/** What the settings form sends: the service and the settings as `saveService` takes them. */
export interface ServiceSettingsDraft {
  serviceId: string;
  settings: ServiceSettingsInput;
}

export interface KeptPayload {
  messageId: string;
  version: number;
  recordedAt: string;
  payload: string;
}

export type HashedForm = { hash: string; canonical: string } | { error: string };

export interface ServiceSettingsPreview {
  current: ServiceSettingsView;
  /** The settings as they would be saved: path lists sorted and once each, as the verb stores them. */
  next: { displayName: string; ignoredPaths: string[]; includedPaths: string[]; normalise: string[]; historyDepth: number };
  /** Whether saving starts a new hash settings version (the paths or the normalisations change). */
  newHashVersion: boolean;
  hashVersionAfter: number;
  /** Nothing would change at all: saving is pointless. */
  unchanged: boolean;
  /** The newest kept payload hashed under the current and the proposed settings (null: none kept). */
  sample: (KeptPayload & { before: HashedForm; after: HashedForm }) | null;
}

export async function loadServiceSettings(db: DbOrTx, serviceId: string): Promise<ServiceSettingsView | null> {
  const row = await findService(db, serviceId);
  if (!row) return null;
  return { ...serviceSummary(row), updatedAt: row.updatedAt.toISOString() };
}

/** Keys looked at for a kept payload: recently changed keys of a service that keeps history have one. */
const SAMPLE_KEYS = 5;

/** The newest payload version of the most recently changed key that has one kept, if any. */
export async function newestKeptPayload(db: DbOrTx, serviceId: string): Promise<KeptPayload | null> {
  const { rows } = await listKeysPage(db, { serviceId, sort: "desc", limit: SAMPLE_KEYS });
  for (const row of rows) {
    const [newest] = await listKeyVersions(db, serviceId, row.messageId);
    if (newest) return { messageId: row.messageId, version: newest.version, recordedAt: newest.recordedAt.toISOString(), payload: newest.payload };
  }
  return null;
}

/**
 * What saving `draft` would do to the service: parsed by the verb's own schema (so the preview
 * refuses what saving would), compared the way the store compares (sorted lists against the
 * stored ones), and the newest kept payload's canonical form under both settings.
 */
export async function previewServiceSettings(db: DbOrTx, draft: ServiceSettingsDraft): Promise<ServiceSettingsPreview> {
  const serviceId = serviceIdSchema.parse(draft.serviceId);
  const settings = serviceSettingsSchema.parse(draft.settings);
  const current = await loadServiceSettings(db, serviceId);
  if (!current) throw new NotFoundError(`service "${serviceId}" is not registered`, "serviceId");
  const next = {
    displayName: settings.displayName ?? current.displayName,
    // As saving does: normalisations not named are kept.
    ...storedHashSettings({ ...settings, normalise: settings.normalise ?? current.normalise }),
    historyDepth: settings.historyDepth,
  };
  const newHashVersion = startsNewHashVersion(current, next);
  const kept = current.historyDepth > 0 ? await newestKeptPayload(db, serviceId) : null;
  return {
    current,
    next,
    newHashVersion,
    hashVersionAfter: current.hashVersion + (newHashVersion ? 1 : 0),
    unchanged: !newHashVersion && next.displayName === current.displayName && next.historyDepth === current.historyDepth,
    sample: kept && {
      ...kept,
      before: hashedForm(kept.payload, current),
      after: hashedForm(kept.payload, next),
    },
  };
}

/** What is hashed of a payload under some hash settings (its canonical form), or why nothing is. */
export function hashedForm(payload: string, settings: HashSettings): HashedForm {
  try {
    const { hash, canonical } = structuralHash(payload, { filter: compilePathFilter(settings), keepCanonical: true });
    return { hash, canonical: canonical ?? "" };
  } catch (err) {
    if (err instanceof CanonicalJsonError) return { error: err.message };
    throw err;
  }
}
