import { WeirProtocolError } from "./errors";
import type { CheckResponse, ClaimResponse } from "./types";

const CHECK_DECISIONS = new Set(["new", "changed", "duplicate"]);
const CLAIM_DECISIONS = new Set(["new", "duplicate"]);

type Keyed = { messageId: string };

/**
 * A decision is only ever what weir said about this key. Anything else in a
 * 2xx body (a proxy's page, a truncated answer, another key) is an error, never
 * a default decision.
 */
function assertDecision<T extends Keyed & { decision: string }>(value: unknown, allowed: Set<string>, expected: Keyed, requestId: string, where: string): T {
  const item = value as Partial<T> | undefined;
  if (!item || typeof item !== "object" || typeof item.decision !== "string" || !allowed.has(item.decision)) {
    throw new WeirProtocolError(`${where}: the answer carries no valid decision`, requestId);
  }
  if (item.messageId !== expected.messageId) {
    throw new WeirProtocolError(`${where}: the answer is for message ${String(item.messageId)}, not ${expected.messageId}`, requestId);
  }
  return item as T;
}

export function checkDecision(value: unknown, expected: Keyed, requestId: string, where = "check"): CheckResponse {
  return assertDecision<CheckResponse>(value, CHECK_DECISIONS, expected, requestId, where);
}

export function claimDecision(value: unknown, expected: Keyed, requestId: string, where = "claim"): ClaimResponse {
  return assertDecision<ClaimResponse>(value, CLAIM_DECISIONS, expected, requestId, where);
}

/** A batch answer has exactly one decision per item, in the items' order. */
export function batchDecisions<T>(body: unknown, items: readonly Keyed[], requestId: string, one: (value: unknown, expected: Keyed, requestId: string, where: string) => T): T[] {
  const results = (body as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results) || results.length !== items.length) {
    throw new WeirProtocolError(`batch: expected ${items.length} results`, requestId);
  }
  return results.map((result, i) => one(result, items[i]!, requestId, `batch item ${i}`));
}
