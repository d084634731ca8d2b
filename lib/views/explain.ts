import { findKeyState, listKeyVersions } from "@/db/queries/keys";
import { findHashSettings, findService } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { compilePathFilter } from "@/lib/dedup/canonical/path-filter";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { hashForService } from "@/lib/dedup/last-seen/check";
import { wouldDecide, type Decision } from "@/lib/dedup/last-seen/decide";
import { toServiceConfig } from "@/lib/services/service-config";
import { NotFoundError } from "@/lib/errors";
import { explainInputSchema, type ExplainInput } from "@/lib/validation/console-explain";
import { authorize } from "@/lib/auth/authorize";
import { parseExactJson } from "./exact-json";
import { diffExact, presentPaths, type DiffEntry } from "./json-diff";

export interface Explanation {
  serviceId: string;
  messageId: string;
  ignoredPaths: string[];
  /** When not empty, the only paths hashed. */
  includedPaths: string[];
  /** The normalisations applied before hashing: `canonical` is the normalised form. */
  normalise: string[];
  /** Ignored paths found in the payload, stripped before hashing. */
  ignoredPresent: string[];
  canonical: string;
  hash: string;
  /** The service's hash settings version: the one `hash` was made under. */
  hashVersion: number;
  stored: { hash: string; version: number; hashVersion: number; firstSeen: string; lastChanged: string } | null;
  /**
   * When the key's hash was made under other hash settings than the service's now: those settings,
   * and this payload's hash under them (what check compares when the key keeps no history).
   */
  storedSettings: { hashVersion: number; ignoredPaths: string[]; includedPaths: string[]; normalise: string[]; hash: string } | null;
  decision: Decision;
  /** The version a check would answer with. */
  version: number;
  /** Against the newest kept payload, when the service keeps history and the hash differs. */
  diff: { version: number; entries: DiffEntry[] } | null;
}

/**
 * What `check` would answer for this payload now: the same hash, and the real
 * decision statement run in a transaction that is rolled back (nothing stays
 * written; a key it would change is locked for that moment).
 */
export async function explainCheck({ db, actor, input }: { db: DbOrTx; actor: Actor; input: ExplainInput }): Promise<Explanation> {
  authorize(actor, "read");
  const { serviceId, messageId, payload } = explainInputSchema.parse(input);
  const service = await findService(db, serviceId);
  if (!service) throw new NotFoundError(`service "${serviceId}" is not registered`, "serviceId");
  const config = toServiceConfig(service);
  const filter = config.pathFilter;
  const { hash, canonical } = structuralHash(payload, { filter, keepCanonical: true });
  const tree = parseExactJson(payload);
  const state = await findKeyState(db, serviceId, messageId);
  const { decision, version } = await wouldDecide(db, hashForService(config, messageId, payload));
  const storedSettings = state && state.hashVersion !== service.hashVersion ? await underSettingsOf(db, serviceId, state.hashVersion, payload) : null;
  let diff: Explanation["diff"] = null;
  if (state && decision === "changed") {
    const [latest] = await listKeyVersions(db, serviceId, messageId);
    if (latest) diff = { version: latest.version, entries: diffExact(parseExactJson(latest.payload), tree, filter) };
  }
  return {
    serviceId,
    messageId,
    ignoredPaths: service.ignoredPaths,
    includedPaths: service.includedPaths,
    normalise: service.normalise,
    ignoredPresent: presentPaths(tree, service.ignoredPaths),
    canonical: canonical ?? "",
    hash,
    hashVersion: service.hashVersion,
    stored: state ? {
      hash: state.hash,
      version: state.version,
      hashVersion: state.hashVersion,
      firstSeen: state.firstSeen.toISOString(),
      lastChanged: state.lastChanged.toISOString(),
    } : null,
    storedSettings,
    decision,
    version,
    diff,
  };
}

async function underSettingsOf(db: DbOrTx, serviceId: string, hashVersion: number, payload: string): Promise<Explanation["storedSettings"]> {
  const settings = await findHashSettings(db, serviceId, hashVersion);
  if (!settings) return null;
  const { hash } = structuralHash(payload, { filter: compilePathFilter(settings) });
  return { hashVersion, ignoredPaths: settings.ignoredPaths, includedPaths: settings.includedPaths, normalise: settings.normalise, hash };
}
