import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { defaultTtlSeconds } from "./default-ttl";
import { findConsumerGroup } from "./groups";

export interface TtlImpact {
  /** Records inside the window under the current TTL. */
  liveNow: number;
  /** Records inside the window under the new TTL. */
  liveAfter: number;
  /** Shortening: records inside the current window that the new TTL expires at once. */
  expireAtOnce: number;
  /** Lengthening: live records whose window the new TTL extends. */
  liveOn: number;
  /** Lengthening: stored, already expired records that the new TTL brings back inside the window. */
  revived: number;
}

export interface TtlPreview extends TtlImpact {
  consumerGroup: string;
  /** False when the group has no settings row and runs on the default TTL. */
  configured: boolean;
  currentTtlSeconds: number;
  newTtlSeconds: number;
}

// Only the range that either window covers is read, through (consumer_group, claimed_at).
const IMPACT_SQL = `
select
  count(*) filter (where claimed_at > statement_timestamp() - make_interval(secs => $2::int)) as live_now,
  count(*) filter (where claimed_at > statement_timestamp() - make_interval(secs => $3::int)) as live_after,
  count(*) filter (where claimed_at > statement_timestamp() - make_interval(secs => $2::int)
                     and claimed_at <= statement_timestamp() - make_interval(secs => $3::int)) as expire_at_once,
  count(*) filter (where claimed_at <= statement_timestamp() - make_interval(secs => $2::int)
                     and claimed_at > statement_timestamp() - make_interval(secs => $3::int)) as revived
from window_records
where consumer_group = $1 and claimed_at > statement_timestamp() - make_interval(secs => greatest($2::int, $3::int))
`;

interface ImpactRow {
  live_now: number | string;
  live_after: number | string;
  expire_at_once: number | string;
  revived: number | string;
}

/** Counts what moving a group from one TTL to another does to its stored records, now. */
export async function measureTtlImpact(
  db: DbOrTx,
  consumerGroup: string,
  currentTtlSeconds: number,
  newTtlSeconds: number,
): Promise<TtlImpact> {
  try {
    const [row] = await runRaw<ImpactRow>(db, {
      name: "weir_window_ttl_impact_v1",
      text: IMPACT_SQL,
      values: [consumerGroup, currentTtlSeconds, newTtlSeconds],
    });
    const liveNow = Number(row?.live_now ?? 0);
    return {
      liveNow,
      liveAfter: Number(row?.live_after ?? 0),
      expireAtOnce: Number(row?.expire_at_once ?? 0),
      liveOn: newTtlSeconds > currentTtlSeconds ? liveNow : 0,
      revived: Number(row?.revived ?? 0),
    };
  } catch (err) {
    throw asStoreError(err);
  }
}

/** What saving `newTtlSeconds` for a group would do, without saving it. */
export async function previewTtlChange(db: DbOrTx, consumerGroup: string, newTtlSeconds: number): Promise<TtlPreview> {
  const group = await findConsumerGroup(db, consumerGroup);
  const currentTtlSeconds = group?.ttlSeconds ?? defaultTtlSeconds();
  const impact = await measureTtlImpact(db, consumerGroup, currentTtlSeconds, newTtlSeconds);
  return { consumerGroup, configured: group !== undefined, currentTtlSeconds, newTtlSeconds, ...impact };
}
