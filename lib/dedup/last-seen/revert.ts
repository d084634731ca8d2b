import { isCitus, shardPeer } from "@/db/citus";
import { auditBy } from "@/db/queries/audit";
import { runRaw, type RawStatement } from "@/db/raw";
import type { DbOrTx } from "@/db/types";
import { asStoreError } from "@/db/unavailable";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { limitReverts } from "@/lib/auth/revert-budget";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { decided, type DecisionOrigin } from "@/lib/telemetry/decisions";
import { serviceConfigs } from "./service-config";
import { revertRequestSchema } from "@/lib/validation/check";

export interface RevertInput {
  serviceId: string;
  messageId: string;
  /** The version a check answered `new` or `changed` with. */
  version: number;
}

export interface RevertResult {
  serviceId: string;
  messageId: string;
  revertedVersion: number;
  /** The key's version now; null when a `new` was reverted (the key has no state). */
  version: number | null;
  hash: string | null;
}

// Each statement is a compare-and-swap on one row (the version is the expected value) and names
// the key, so it is linearizable with checks (the same row lock) and routes to one shard on Citus.
const REVERT_NEW_SQL = `
delete from last_seen where service_id = $1 and message_id = $2 and version = 1
returning null::bigint as version, null::text as hash
`;

// The restored version keeps when it was accepted. A hash replaced before migration 0011 was made
// under the first hash settings, and when it was accepted was not kept: the reverted change's time
// stands in (Citus refuses now() beside a column in an UPDATE).
const REVERT_CHANGE_SQL = `
update last_seen s set hash = s.previous_hash, hash_version = coalesce(s.previous_hash_version, 1), previous_hash = null,
  previous_hash_version = null, version = s.version - 1, last_changed = coalesce(s.previous_last_changed, s.last_changed),
  previous_last_changed = null, ref = s.previous_ref, previous_ref = null
where s.service_id = $1 and s.message_id = $2 and s.version = $3 and s.previous_hash is not null
returning s.version, encode(s.hash, 'hex') as hash
`;

// The reverted version's payload (and, for a `new`, every stored version of the key) goes with it.
const DROP_HISTORY_SQL = `delete from payload_versions where service_id = $1 and message_id = $2 and version >= $3`;

const STATE_SQL = `select version, previous_hash is not null as revertible from last_seen where service_id = $1 and message_id = $2`;

/** The statements a revert of this key may send, each naming (service_id, message_id): one shard on Citus. */
export function revertStatements(input: RevertInput): { swap: RawStatement; dropHistory: RawStatement; state: RawStatement } {
  const key = [input.serviceId, input.messageId];
  return {
    swap:
      input.version === 1
        ? { name: "weir_last_seen_revert_new_v1", text: REVERT_NEW_SQL, values: key }
        : { name: "weir_last_seen_revert_change_v4", text: REVERT_CHANGE_SQL, values: [...key, input.version] },
    dropHistory: { name: "weir_last_seen_revert_history_v1", text: DROP_HISTORY_SQL, values: [...key, input.version] },
    state: { name: "weir_last_seen_revert_state_v1", text: STATE_SQL, values: key },
  };
}

/**
 * Takes back a check's `new` or `changed` after the caller's side effect failed, so the
 * redelivery is decided afresh: the previous hash and version come back (a `new` leaves no
 * state), only while the key is still at that version (409 otherwise). A machine action,
 * committed with its audit row and with the reverted version's stored payload removed.
 */
export async function revertCheck(args: { db: DbOrTx; actor: Actor; input: RevertInput; origin?: DecisionOrigin }): Promise<RevertResult> {
  const result = await revertKey(args);
  decided({
    mode: "last_seen_revert",
    subject: result.serviceId,
    decision: "reverted",
    key: result.messageId,
    version: result.version,
    origin: args.origin ?? { caller: args.actor.id },
  });
  return result;
}

async function revertKey({ db, actor, input }: { db: DbOrTx; actor: Actor; input: RevertInput }): Promise<RevertResult> {
  const parsed = revertRequestSchema.parse(input);
  authorize(actor, "decide", { kind: "services", id: parsed.serviceId });
  try {
    await limitReverts(db, actor);
    await serviceConfigs.require(db, parsed.serviceId);
    const statements = revertStatements(parsed);
    // On Citus the audit row goes to the key's shard: the revert commits on one worker, no two-phase commit.
    const shardKey = (await isCitus(db)) ? await shardPeer(db, "audit_log", parsed.messageId) : undefined;
    return await db.transaction(async (tx) => {
      const [row] = await runRaw<{ version: number | null; hash: string | null }>(tx, statements.swap);
      if (!row) await refuse(tx, parsed, statements.state);
      await runRaw(tx, statements.dropHistory);
      const version = row!.version === null ? null : Number(row!.version);
      await auditBy(tx, actor, {
        action: "last_seen.revert",
        target: `service:${parsed.serviceId}`,
        affected: 1,
        details: { messageId: parsed.messageId, revertedVersion: parsed.version, version },
        shardKey,
      });
      return { serviceId: parsed.serviceId, messageId: parsed.messageId, revertedVersion: parsed.version, version, hash: row!.hash };
    });
  } catch (err) {
    throw asStoreError(err);
  }
}

async function refuse(db: DbOrTx, input: RevertInput, statement: RawStatement): Promise<never> {
  const [state] = await runRaw<{ version: number; revertible: boolean }>(db, statement);
  if (!state) throw new NotFoundError(`key ${input.messageId} of service ${input.serviceId} has no state`, "messageId");
  const current = Number(state.version);
  if (current !== input.version) {
    throw new ConflictError(`key ${input.messageId} is at version ${current}, not ${input.version}: only the latest change can be reverted`, "conflict", {
      version: current,
    });
  }
  throw new ConflictError(
    `version ${current} of key ${input.messageId} cannot be reverted: the hash before it is not kept (reverted already, restored by an undo, or stored before reverts existed)`,
    "conflict",
    { version: current },
  );
}
