import type { DbOrTx } from "@/db/types";
import { structuralHash } from "@/lib/dedup/canonical/structural-hash";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { checkKeySchema } from "@/lib/validation/check";
import { serviceConfigs, type ServiceConfig } from "./service-config";
import { decideInOrder, type CheckOutcome, type HashedCheck } from "./decide";

export interface CheckInput {
  serviceId: string;
  messageId: string;
  /** Any JSON value; JS numbers are taken as their shortest round-trip text. */
  payload: unknown;
}

/** Hashes a payload's JSON text for a service: ignored paths stripped, structure only. */
export function hashForService(config: ServiceConfig, messageId: string, payloadText: string): HashedCheck {
  const { hash } = structuralHash(payloadText, { ignored: config.ignoredTrie });
  return {
    serviceId: config.id,
    messageId,
    hash,
    payloadText: config.historyDepth > 0 ? payloadText : null,
    historyDepth: config.historyDepth,
  };
}

function payloadTextOf(payload: unknown): string {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new ValidationError("payload must be a JSON value", "payload");
  return text;
}

/**
 * Library mode: decides checks on the caller's db or transaction, so the
 * decision commits or rolls back with the caller's own writes.
 */
export async function checkMany(db: DbOrTx, inputs: readonly CheckInput[]): Promise<CheckOutcome[]> {
  const configs = await serviceConfigs.get(db, inputs.map((input) => input.serviceId));
  const hashed = inputs.map((input) => {
    checkKeySchema.parse({ serviceId: input.serviceId, messageId: input.messageId });
    const config = configs.get(input.serviceId);
    if (!config) throw new NotFoundError(`service "${input.serviceId}" is not registered`, "serviceId");
    return hashForService(config, input.messageId, payloadTextOf(input.payload));
  });
  return decideInOrder(db, hashed);
}

export async function check(db: DbOrTx, input: CheckInput): Promise<CheckOutcome> {
  const [outcome] = await checkMany(db, [input]);
  return outcome!;
}
