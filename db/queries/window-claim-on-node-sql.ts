import { perItemInKeyOrder } from "./per-item-sql";

/**
 * On Citus, the claims of one worker in one call, like the checks' (last-seen-decide-on-node-sql.ts):
 * a function distributed by its last argument (a key of the batch; every item's shard is on the
 * worker holding that key's), run on that worker, one local commit. Each item is claimed by
 * weir_window_claim_v3 (migration 0016), the function a single claim calls: the same window rule,
 * slide, late redelivery and lost race (read again inside it). Keys are distinct (one round) and
 * taken in key order. Rows by position (`ord`).
 */
export const WINDOW_CLAIM_ON_NODE_FUNCTION = {
  signature: "weir_window_claim_on_node_v1(text[], text[], integer, text[], text)",
  create: `create function weir_window_claim_on_node_v1(
  p_consumer_groups text[], p_message_ids text[], p_default_ttl integer, p_refs text[], p_message_id text
) returns table (ord integer, ttl_seconds integer, claimed boolean, late_by_seconds float8, window_started_at timestamptz, first_ref text)
language plpgsql as $fn$
${perItemInKeyOrder(
  ["p_consumer_groups", "p_message_ids"],
  "weir_window_claim_v3(p_consumer_groups[i], p_message_ids[i], p_default_ttl, p_refs[i])",
  "d.ttl_seconds, d.claimed, d.late_by_seconds, d.window_started_at, d.first_ref",
)}
$fn$`,
};
