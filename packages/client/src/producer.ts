import { structuralHashOfValue } from "../../../lib/dedup/canonical/structural-hash";
import { currentRequestId, newRequestId, REQUEST_ID_HEADER } from "./request-id";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const MAX_KEY_LENGTH = 255;

/** Plain objects and arrays of JSON values (bigints allowed); no class instances such as Date. */
export type BusinessFields = object;

/**
 * A deterministic idempotency key: `<producer>/<operation>/<hash of the business fields>`.
 * The hash is weir's structural hash (field order never matters, numbers keep
 * their exact text, bigints allowed), so the same fields give the same key in
 * every process, on every retry and after every restart, and two producers
 * can never collide. Put what makes the operation unique in `fields` (order id,
 * line, amount), never a timestamp or an attempt number.
 */
export function idempotencyKey(producer: string, operation: string, fields: BusinessFields): string {
  for (const [name, value] of [["producer", producer], ["operation", operation]] as const) {
    if (!NAME.test(value)) throw new TypeError(`${name} must be 1-128 letters, digits, '.', '_', ':' or '-', got "${value}"`);
  }
  const key = `${producer}/${operation}/${structuralHashOfValue(fields).hash}`;
  if (key.length > MAX_KEY_LENGTH) throw new TypeError(`producer and operation are too long for a ${MAX_KEY_LENGTH}-character key`);
  return key;
}

/** The key maker of one producing service: `const key = keysFor("billing"); key("charge", { orderId })`. */
export function keysFor(producer: string): (operation: string, fields: BusinessFields) => string {
  if (!NAME.test(producer)) throw new TypeError(`producer must be 1-128 letters, digits, '.', '_', ':' or '-', got "${producer}"`);
  return (operation, fields) => idempotencyKey(producer, operation, fields);
}

/** Headers of an outgoing request or message: its idempotency key and the request id to carry along. */
export function producerHeaders(key: string, requestId = currentRequestId() ?? newRequestId()): Record<string, string> {
  return { "idempotency-key": key, [REQUEST_ID_HEADER]: requestId };
}
