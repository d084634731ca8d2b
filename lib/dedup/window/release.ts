import type { RawStatement } from "@/db/raw";
import { runRaw } from "@/db/raw";
import { routedDb } from "@/db/shard-router";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import { ConflictError } from "@/lib/errors";
import { decided, type DecisionOrigin } from "@/lib/telemetry/decisions";
import { claimReleaseRequestSchema } from "@/lib/validation/window";
import { defaultTtlSeconds } from "./default-ttl";

export interface ReleaseClaimInput {
  consumerGroup: string;
  messageId: string;
  /** The claim's windowStartedAt (ISO 8601): only that claim is released, not a later one. */
  claimedAt?: string;
}

export interface ReleaseClaimResult {
  consumerGroup: string;
  messageId: string;
  /** True when a claim inside its window was forgotten: the next claim of the message is new. */
  released: boolean;
  /** Why not, when not: no record stored, or its window had passed already (releasing is idempotent). */
  reason: "released" | "absent" | "expired";
  /** When the released (or expired) claim was made; null when absent. */
  claimedAt: string | null;
}

type ReleaseState = "released" | "absent" | "expired" | "claimed_again";

function releaseStatement(input: ReleaseClaimInput, defaultTtl: number): RawStatement {
  // The claim's time to the millisecond (what JSON carries); the column holds microseconds.
  const from = input.claimedAt === undefined ? null : new Date(input.claimedAt);
  const to = from && new Date(from.getTime() + 1);
  return {
    name: "weir_window_release_v1",
    text: "select c.* from weir_window_release($1, $2, $3, $4, $5) c",
    values: [input.consumerGroup, input.messageId, defaultTtl, from, to],
  };
}

/**
 * Forgets a claim whose work failed, so a redelivery is claimed (and handled) again.
 * One statement on the key: a machine action like an idempotency release, so it is
 * not written to the audit log (the operator's bulk tool is reset, which is audited).
 * With `claimedAt`, a key claimed again since (another consumer, after the window
 * expired) is refused with 409 instead of releasing that consumer's claim.
 */
export async function releaseClaim(db: DbOrTx, input: ReleaseClaimInput, origin?: DecisionOrigin): Promise<ReleaseClaimResult> {
  const result = await forgetClaim(db, input);
  decided({
    mode: "window_release",
    subject: result.consumerGroup,
    decision: result.released ? "released" : "not_released",
    key: result.messageId,
    matchedAt: result.claimedAt,
    origin,
  });
  return result;
}

async function forgetClaim(db: DbOrTx, input: ReleaseClaimInput): Promise<ReleaseClaimResult> {
  const parsed = claimReleaseRequestSchema.parse(input);
  let row: { state: ReleaseState; claimed_at: Date | string | null } | undefined;
  try {
    [row] = await runRaw(routedDb(db, "window_records", parsed.messageId), releaseStatement(parsed, defaultTtlSeconds()));
  } catch (err) {
    throw asStoreError(err);
  }
  const claimedAt = row?.claimed_at ? new Date(row.claimed_at).toISOString() : null;
  const state = row?.state ?? "absent";
  if (state === "claimed_again") {
    throw new ConflictError(
      `message ${parsed.messageId} was claimed again in consumer group ${parsed.consumerGroup} at ${claimedAt}, not at ${parsed.claimedAt}: that claim is not released`,
      "conflict",
      { claimedAt },
    );
  }
  return { consumerGroup: parsed.consumerGroup, messageId: parsed.messageId, released: state === "released", reason: state, claimedAt };
}
