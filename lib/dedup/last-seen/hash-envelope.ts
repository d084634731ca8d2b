import { hashJsonAt } from "@/lib/dedup/canonical/canonical-json";
import type { PathFilter } from "@/lib/dedup/canonical/path-filter";
import type { ServiceConfig } from "./service-config";
import type { HashedCheck } from "./decide";

export interface PayloadSlice {
  payloadStart: number;
  payloadEnd: number;
  /** Hash taken while the envelope was parsed. */
  hash: string;
  /** The path filter that hash was taken with; undefined when none was known yet. */
  filter: PathFilter | null | undefined;
}

/**
 * Hashes a payload that was parsed as part of a request body, for one service:
 * the envelope's hash is reused when it was taken with the service's path
 * filter, and re-taken from the slice otherwise.
 */
export function hashPayloadSlice(config: ServiceConfig, messageId: string, text: string, slice: PayloadSlice): HashedCheck {
  const reusable = slice.filter === config.pathFilter || (slice.filter === undefined && config.pathFilter === null);
  return {
    serviceId: config.id,
    messageId,
    hash: reusable ? slice.hash : hashJsonAt(text, slice.payloadStart, { filter: config.pathFilter }).hash,
    hashVersion: config.hashVersion,
    payloadSource: text,
    payloadAt: slice.payloadStart,
    payloadText: config.historyDepth > 0 ? text.slice(slice.payloadStart, slice.payloadEnd) : null,
    historyDepth: config.historyDepth,
    ref: null,
  };
}
