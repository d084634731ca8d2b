import { hashJsonAt } from "@/lib/dedup/canonical/canonical-json";
import type { IgnoredPathTrie } from "@/lib/dedup/canonical/ignored-paths";
import type { ServiceConfig } from "./service-config";
import type { HashedCheck } from "./decide";

export interface PayloadSlice {
  payloadStart: number;
  payloadEnd: number;
  /** Hash taken while the envelope was parsed. */
  hash: string;
  /** The ignored paths that hash was taken with; undefined when none were known yet. */
  ignored: IgnoredPathTrie | null | undefined;
}

/**
 * Hashes a payload that was parsed as part of a request body, for one service:
 * the envelope's hash is reused when it was taken with the service's ignored
 * paths, and re-taken from the slice otherwise.
 */
export function hashPayloadSlice(config: ServiceConfig, messageId: string, text: string, slice: PayloadSlice): HashedCheck {
  const reusable = slice.ignored === config.ignoredTrie || (slice.ignored === undefined && config.ignoredTrie === null);
  const hash = reusable ? slice.hash : hashJsonAt(text, slice.payloadStart, { ignored: config.ignoredTrie }).hash;
  return {
    serviceId: config.id,
    messageId,
    hash,
    payloadText: config.historyDepth > 0 ? text.slice(slice.payloadStart, slice.payloadEnd) : null,
    historyDepth: config.historyDepth,
  };
}
