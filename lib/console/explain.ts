import { findKeyState, listKeyVersions } from "@/db/queries/keys";
import { findService } from "@/db/queries/services";
import type { DbOrTx } from "@/db/types";
import type { Actor } from "@/lib/auth/actor";
import { compileIgnoredPaths } from "@/lib/dedup/canonical/ignored-paths";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { NotFoundError } from "@/lib/errors";
import { explainInputSchema, type ExplainInput } from "@/lib/validation/console-explain";
import { authorise } from "./authorise";
import { parseExactJson } from "./exact-json";
import { diffExact, presentPaths, type DiffEntry } from "./json-diff";

export interface Explanation {
  serviceId: string;
  messageId: string;
  ignoredPaths: string[];
  /** Ignored paths found in the payload, stripped before hashing. */
  ignoredPresent: string[];
  canonical: string;
  hash: string;
  stored: { hash: string; version: number; firstSeen: string; lastChanged: string } | null;
  decision: "new" | "changed" | "duplicate";
  /** The version a check would answer with. */
  version: number;
  /** Against the newest kept payload, when the service keeps history and the hash differs. */
  diff: { version: number; entries: DiffEntry[] } | null;
}

/**
 * What `check` would answer for this payload now, computed with the same hash
 * and a read of the stored state. Reads only: nothing is written or locked.
 */
export async function explainCheck({ db, actor, input }: { db: DbOrTx; actor: Actor; input: ExplainInput }): Promise<Explanation> {
  authorise(actor, "viewer");
  const { serviceId, messageId, payload } = explainInputSchema.parse(input);
  const service = await findService(db, serviceId);
  if (!service) throw new NotFoundError(`service "${serviceId}" is not registered`, "serviceId");
  const ignored = compileIgnoredPaths(service.ignoredPaths);
  const { hash, canonical } = structuralHash(payload, { ignored, keepCanonical: true });
  const tree = parseExactJson(payload);
  const state = await findKeyState(db, serviceId, messageId);
  const decision = !state ? "new" : state.hash === hash ? "duplicate" : "changed";
  let diff: Explanation["diff"] = null;
  if (state && decision === "changed") {
    const [latest] = await listKeyVersions(db, serviceId, messageId);
    if (latest) diff = { version: latest.version, entries: diffExact(parseExactJson(latest.payload), tree, ignored) };
  }
  return {
    serviceId,
    messageId,
    ignoredPaths: service.ignoredPaths,
    ignoredPresent: presentPaths(tree, service.ignoredPaths),
    canonical: canonical ?? "",
    hash,
    stored: state ? {
      hash: state.hash,
      version: state.version,
      firstSeen: state.firstSeen.toISOString(),
      lastChanged: state.lastChanged.toISOString(),
    } : null,
    decision,
    version: !state ? 1 : decision === "duplicate" ? state.version : state.version + 1,
    diff,
  };
}
