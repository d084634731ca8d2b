import { perItemInKeyOrder } from "./per-item-sql";

/**
 * On Citus, the checks of one worker in one call: a function distributed by its last argument (a
 * key of the batch; every item's shard is on the worker holding that key's). Called outside a
 * transaction it runs on that worker, where each item's statements find their shard local: one
 * round trip, one local commit, no two-phase commit.
 *
 * Each item is decided by weir_last_seen_decide_v5 (migration 0016), the very function a single
 * check calls, so a batch decides exactly as one-key calls would: same compare-and-swap, same
 * `stale` answer, same lost race (no row for that item: a concurrent check committed the same
 * hash, read afterwards as with one key). Keys are distinct (one round, see splitIntoRounds) and
 * taken in key order. Rows come back by position (`ord`) like the batch statement's.
 */
export const LAST_SEEN_DECIDE_ON_NODE_FUNCTION = {
  signature: "weir_last_seen_decide_on_node_v1(text[], text[], text[], integer[], text[], integer[], text[], text)",
  create: `create function weir_last_seen_decide_on_node_v1(
  p_service_ids text[], p_message_ids text[], p_hashes text[], p_hash_versions integer[],
  p_payloads text[], p_history_depths integer[], p_refs text[], p_message_id text
) returns table (ord integer, version bigint, decision text, last_changed timestamptz, first_ref text)
language plpgsql as $fn$
${perItemInKeyOrder(
  ["p_service_ids", "p_message_ids"],
  `weir_last_seen_decide_v5(p_service_ids[i], p_message_ids[i], decode(p_hashes[i], 'hex'), p_hash_versions[i],
      p_payloads[i], p_history_depths[i], null, null, false, p_refs[i])`,
  "d.version, d.decision, d.last_changed, d.first_ref",
)}
$fn$`,
};
