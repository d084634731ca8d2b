import { isCitus } from "@/db/citus";
import { runRaw } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { decided } from "@/lib/telemetry/decisions";
import { claimByNode } from "./claim-by-node";
import { claimOneStatement, claimStatement, slideStatement, windowStartsStatement, type ClaimKey, type ClaimRow } from "./claim-statement";
import { defaultTtlSeconds } from "./default-ttl";
import { splitRounds } from "./rounds";

export type ClaimDecision = "new" | "duplicate";

export interface ClaimOutcome {
  consumerGroup: string;
  messageId: string;
  decision: ClaimDecision;
  /** The group's TTL the decision was made with. */
  ttlSeconds: number;
  /** Present when the record existed but its window had expired: the window did not hold. */
  lateRedelivery?: { lateBySeconds: number };
  /**
   * When the window started (ISO 8601): this claim's time when new, the matched claim's when a
   * duplicate (before a sliding group restarts it). Null only when the claim that won a race
   * was released before weir could read it.
   */
  windowStartedAt: string | null;
  /** windowStartedAt + ttlSeconds: until then a redelivery is a duplicate. */
  windowEndsAt: string | null;
  /** A duplicate only: the ref given with the claim that opened the window (null: none). */
  firstRef?: string | null;
}

const keyOf = (item: ClaimKey) => `${item.consumerGroup}\u0000${item.messageId}`;

/** Claims one message for a consumer group: `new` once per window, `duplicate` inside it. */
export async function claim(db: DbOrTx, item: ClaimKey): Promise<ClaimOutcome> {
  const [outcome] = await claimMany(db, [item]);
  return outcome!;
}

/**
 * Claims a list in order, one statement per round of distinct keys. Runs on
 * `db` as given, so inside a caller's transaction the claims commit or roll
 * back with its business write (library mode).
 */
export async function claimMany(db: DbOrTx, items: readonly ClaimKey[]): Promise<ClaimOutcome[]> {
  if (items.length === 0) return [];
  const outcomes = new Array<ClaimOutcome>(items.length);
  try {
    const ttl = defaultTtlSeconds();
    for (const round of splitRounds(items, keyOf)) {
      const decided = await claimDistinct(db, round.map((index) => items[index]!), ttl);
      round.forEach((index, position) => (outcomes[index] = decided[position]!));
    }
  } catch (err) {
    for (const item of items) decided({ mode: "window", subject: item.consumerGroup, decision: "error" });
    throw asStoreError(err);
  }
  recordClaims(outcomes, items);
  return outcomes;
}

/**
 * Claims items whose keys are all distinct in one statement, with the stats a
 * claim counts; what the claim coalescer runs for concurrent single claims.
 */
export async function claimDistinctCounted(db: DbOrTx, items: readonly ClaimKey[]): Promise<ClaimOutcome[]> {
  let outcomes: ClaimOutcome[];
  try {
    outcomes = await claimDistinct(db, items, defaultTtlSeconds());
  } catch (err) {
    for (const item of items) decided({ mode: "window", subject: item.consumerGroup, decision: "error" });
    throw asStoreError(err);
  }
  recordClaims(outcomes, items);
  return outcomes;
}

async function claimDistinct(db: DbOrTx, keys: readonly ClaimKey[], ttl: number): Promise<ClaimOutcome[]> {
  // On Citus an array of keys spans every shard: one call per worker instead.
  if (await isCitus(db)) {
    const rows = await claimByNode(db, keys, ttl);
    return keys.map((key, index) => {
      if (!rows[index]) throw new Error(`claim call returned no row for item ${index}`);
      return toOutcome(rows[index]);
    });
  }
  // A lone claim (what light load sends) goes through the one-key function: its plans are cached,
  // where the batch statement's array parameters get it planned afresh at every call.
  if (keys.length === 1) {
    const [row] = await runRaw<ClaimRow>(db, claimOneStatement(keys[0]!, ttl));
    if (!row) throw new Error("claim function returned no row");
    return [toOutcome(row)];
  }
  const rows = await runRaw<ClaimRow>(db, claimStatement(keys, ttl));
  const byKey = new Map<string, ClaimRow>();
  for (const row of rows) byKey.set(`${row.consumer_group}\u0000${row.message_id}`, row);
  const raced = rows.filter((row) => row.window_started_at === null);
  if (raced.length > 0) await readWindowStarts(db, raced);
  const sliding = rows.filter((row) => row.slides);
  if (sliding.length > 0) {
    await runRaw(db, slideStatement(sliding.map((row) => ({ consumerGroup: row.consumer_group, messageId: row.message_id, ttlSeconds: Number(row.ttl_seconds) }))));
  }
  return keys.map((key, index) => {
    const row = byKey.get(keyOf(key));
    if (!row) throw new Error(`claim statement returned no row for item ${index}`);
    return toOutcome(row);
  });
}

/** Duplicates that lost a race see the winner's record only in a later statement's snapshot. */
async function readWindowStarts(db: DbOrTx, rows: ClaimRow[]): Promise<void> {
  const keys = rows.map((row) => ({ consumerGroup: row.consumer_group, messageId: row.message_id }));
  const found = await runRaw<Pick<ClaimRow, "consumer_group" | "message_id" | "window_started_at" | "first_ref">>(db, windowStartsStatement(keys));
  const starts = new Map(found.map((row) => [`${row.consumer_group}\u0000${row.message_id}`, row]));
  for (const row of rows) {
    const winner = starts.get(`${row.consumer_group}\u0000${row.message_id}`);
    row.window_started_at = winner?.window_started_at ?? null;
    row.first_ref = winner?.first_ref ?? null;
  }
}

/** One event per claim, in the order of `items` (the outcomes' order). */
function recordClaims(outcomes: readonly ClaimOutcome[], items: readonly ClaimKey[]): void {
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    decided({
      mode: "window",
      subject: outcome.consumerGroup,
      decision: outcome.decision,
      lateBySeconds: outcome.lateRedelivery?.lateBySeconds,
      key: outcome.messageId,
      matchedAt: outcome.windowStartedAt,
      origin: items[i]!.origin,
      ref: items[i]!.ref ?? null,
    });
  }
}

function toOutcome(row: ClaimRow): ClaimOutcome {
  const ttlSeconds = Number(row.ttl_seconds);
  const started = row.window_started_at === null ? null : new Date(row.window_started_at);
  const outcome: ClaimOutcome = {
    consumerGroup: row.consumer_group,
    messageId: row.message_id,
    decision: row.claimed ? "new" : "duplicate",
    ttlSeconds,
    windowStartedAt: started && started.toISOString(),
    windowEndsAt: started && new Date(started.getTime() + ttlSeconds * 1000).toISOString(),
  };
  if (row.claimed && row.late_by_seconds !== null) outcome.lateRedelivery = { lateBySeconds: Number(row.late_by_seconds) };
  if (!row.claimed) outcome.firstRef = row.first_ref ?? null;
  return outcome;
}
