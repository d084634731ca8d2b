import { findKeyState, listKeyVersions } from "@/db/queries/keys";
import { findService } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { compilePathFilter, type HashSettings } from "@/lib/dedup/canonical/path-filter";
import { parseExactJson, type ExactJson } from "./exact-json";
import { diffExact, presentPaths, type DiffEntry } from "./json-diff";
import { serviceSummary, type ServiceSummary } from "./service-summary";

export interface KeyVersionView {
  version: number;
  hash: string;
  payload: string;
  recordedAt: string;
  /** The service's ignored paths found in this payload: stripped before it was hashed. */
  ignoredPresent: string[];
}

export interface KeyDetail {
  service: ServiceSummary;
  /** `hashVersion`: the service's hash settings the key's hash was made under (moved to the current ones at its next check). */
  state: { messageId: string; hash: string; hashVersion: number; version: number; firstSeen: string; lastChanged: string; ref: string | null };
  versions: KeyVersionView[];
  diff: { from: number; to: number; entries: DiffEntry[] } | { from: number; to: number; error: string } | null;
}

/** A key's state, its kept payload versions and the diff between two of them (default: the newest two). */
export async function loadKeyDetail(
  db: DbOrTx,
  serviceId: string,
  messageId: string,
  compare: { from?: number; to?: number } = {},
): Promise<KeyDetail | null> {
  const service = await findService(db, serviceId);
  if (!service) return null;
  const [state, versions] = await Promise.all([
    findKeyState(db, service.id, messageId),
    listKeyVersions(db, service.id, messageId),
  ]);
  if (!state) return null;
  const trees = new Map<number, ExactJson | Error>();
  for (const v of versions) {
    try {
      trees.set(v.version, parseExactJson(v.payload));
    } catch (err) {
      if (!(err instanceof CanonicalJsonError)) throw err;
      trees.set(v.version, err);
    }
  }
  const views = versions.map((v) => {
    const tree = trees.get(v.version);
    return {
      version: v.version,
      hash: v.hash,
      payload: v.payload,
      recordedAt: v.recordedAt.toISOString(),
      ignoredPresent: tree && !(tree instanceof Error) ? presentPaths(tree, service.ignoredPaths) : [],
    };
  });
  return {
    service: serviceSummary(service),
    state: {
      messageId: state.messageId,
      hash: state.hash,
      hashVersion: state.hashVersion,
      version: state.version,
      firstSeen: state.firstSeen.toISOString(),
      lastChanged: state.lastChanged.toISOString(),
      ref: state.ref,
    },
    versions: views,
    diff: pickDiff(trees, views, compare, service),
  };
}

function pickDiff(
  trees: Map<number, ExactJson | Error>,
  versions: KeyVersionView[],
  compare: { from?: number; to?: number },
  settings: HashSettings,
): KeyDetail["diff"] {
  if (versions.length < 2) return null;
  // A version that is not kept (or never existed) becomes the nearest kept one, so the heading, the
  // version pickers and the diff always name the same two versions.
  const from = nearestKept(versions, compare.from ?? versions[1]!.version);
  const to = nearestKept(versions, compare.to ?? versions[0]!.version);
  const a = trees.get(from);
  const b = trees.get(to);
  if (a === undefined || b === undefined) return { from, to, error: "that version is no longer kept" };
  if (a instanceof Error || b instanceof Error) return { from, to, error: "a stored payload could not be read as JSON" };
  return { from, to, entries: diffExact(a, b, compilePathFilter(settings)) };
}

function nearestKept(versions: KeyVersionView[], wanted: number): number {
  let best = versions[0]!.version;
  for (const v of versions) if (Math.abs(v.version - wanted) < Math.abs(best - wanted)) best = v.version;
  return best;
}
