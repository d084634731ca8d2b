import type { DecisionOrigin } from "@/lib/telemetry/decisions";
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
  /** Who asks, for the decision journal: in library mode, name the calling service in `caller`. */
  origin?: DecisionOrigin;
  /** Caller data kept with the version this check stores, returned with every duplicate of it (at most 256 bytes). */
  ref?: string;
}

/** Hashes a payload's JSON text for a service: only what its path filter keeps, structure only. */
export function hashForService(config: ServiceConfig, messageId: string, payloadText: string): HashedCheck {
  return {
    serviceId: config.id,
    messageId,
    hash: structuralHash(payloadText, { filter: config.pathFilter }).hash,
    hashVersion: config.hashVersion,
    payloadSource: payloadText,
    payloadAt: 0,
    payloadText: config.historyDepth > 0 ? payloadText : null,
    historyDepth: config.historyDepth,
    ref: null,
  };
}

function payloadTextOf(payload: unknown): string {
  const text = JSON.stringify(payload);
  if (text === undefined) throw new ValidationError("payload must be a JSON value", "payload");
  return text;
}

/**
 * The check verb behind the batch route and library mode: the services' settings (404 naming
 * `fieldOf(index)` for one that is not registered), each item hashed under its service's
 * settings by the door's own hasher (library mode from a value, the API from the request's
 * bytes), then decided in order. Single API checks take the coalescer to the same statement.
 */
export async function checkKeys<T extends { serviceId: string; messageId: string }>(
  db: DbOrTx,
  items: readonly T[],
  hash: (config: ServiceConfig, item: T, index: number) => HashedCheck,
  fieldOf: (index: number) => string,
): Promise<CheckOutcome[]> {
  const configs = await serviceConfigs.get(db, items.map((item) => item.serviceId));
  const hashed = items.map((item, index) => {
    const config = configs.get(item.serviceId);
    if (!config) throw new NotFoundError(`service "${item.serviceId}" is not registered`, fieldOf(index));
    return hash(config, item, index);
  });
  return decideInOrder(db, hashed);
}

/**
 * Library mode: decides checks on the caller's db or transaction, so the
 * decision commits or rolls back with the caller's own writes.
 */
export async function checkMany(db: DbOrTx, inputs: readonly CheckInput[]): Promise<CheckOutcome[]> {
  for (const input of inputs) checkKeySchema.parse({ serviceId: input.serviceId, messageId: input.messageId, ref: input.ref });
  const hash = (config: ServiceConfig, input: CheckInput): HashedCheck => {
    const item = hashForService(config, input.messageId, payloadTextOf(input.payload));
    item.origin = input.origin;
    item.ref = input.ref ?? null;
    return item;
  };
  return checkKeys(db, inputs, hash, () => "serviceId");
}

export async function check(db: DbOrTx, input: CheckInput): Promise<CheckOutcome> {
  const [outcome] = await checkMany(db, [input]);
  return outcome!;
}
