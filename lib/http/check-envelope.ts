import { parseEnvelope, parseEnvelopeAt, type ParsedEnvelope } from "@/lib/dedup/canonical/envelope";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import type { PathFilter } from "@/lib/dedup/canonical/path-filter";
import { DEFAULT_MAX_DEPTH } from "@/lib/dedup/canonical/json-scanner";
import { PlainJsonParser } from "@/lib/dedup/canonical/plain-json";
import { ValidationError } from "@/lib/errors";
import { MAX_BATCH_ITEMS } from "@/lib/validation/check";

/**
 * A check request taken apart in one pass over the body text: the envelope
 * fields as JS values, the payload as its exact source slice plus its hash.
 * `filterFor` lets the payload be hashed with the service's path filter in
 * that same pass when the service id came first and its settings are cached.
 */
export interface CheckEnvelope {
  serviceId: unknown;
  messageId: unknown;
  ref: unknown;
  payloadStart: number;
  payloadEnd: number;
  hash: string;
  /** The path filter the hash was taken with; undefined when not known yet. */
  filter: PathFilter | null | undefined;
}

export type FilterLookup = (serviceId: string) => PathFilter | null | undefined;

function optionsFor(filterFor: FilterLookup) {
  return {
    hashedField: "payload",
    maxDepth: DEFAULT_MAX_DEPTH,
    filter: (fields: Record<string, unknown>) => (typeof fields.serviceId === "string" ? filterFor(fields.serviceId) : undefined),
  };
}

function toCheckEnvelope(parsed: ParsedEnvelope, prefix: string): CheckEnvelope {
  if (!parsed.hashed) throw new ValidationError(`${prefix}payload: required`, `${prefix}payload`);
  return {
    serviceId: parsed.fields.serviceId,
    messageId: parsed.fields.messageId,
    ref: parsed.fields.ref,
    payloadStart: parsed.hashed.start,
    payloadEnd: parsed.hashed.end,
    hash: parsed.hashed.hash,
    filter: parsed.hashed.filter,
  };
}

/** Syntax errors become 400s whose field points into the body, e.g. `items[3].payload/lines/0`. */
function asFieldError(err: unknown, prefix: string): never {
  if (err instanceof CanonicalJsonError && err.path) {
    throw new ValidationError(err.message, `${prefix}${err.path.slice(1)}`, err.code);
  }
  throw err;
}

export function parseCheckEnvelope(text: string, filterFor: FilterLookup): CheckEnvelope {
  try {
    return toCheckEnvelope(parseEnvelope(text, optionsFor(filterFor)), "");
  } catch (err) {
    return asFieldError(err, "");
  }
}

/** Parses `{"items":[envelope, ...]}` keeping item order. */
export function parseCheckBatch(text: string, filterFor: FilterLookup): CheckEnvelope[] {
  const parser = new PlainJsonParser(text, 0, DEFAULT_MAX_DEPTH);
  const options = optionsFor(filterFor);
  const items: CheckEnvelope[] = [];
  let sawItems = false;
  try {
    if (parser.peek() !== 0x7b) parser.unexpected("expected a JSON object");
    parser.pos++;
    if (parser.peek() !== 0x7d) {
      const seen = Object.create(null) as Record<string, unknown>;
      do {
        const name = parser.fieldName(seen);
        seen[name] = true;
        if (name !== "items") {
          parser.value(1);
          continue;
        }
        sawItems = true;
        if (parser.peek() !== 0x5b) parser.unexpected("items: expected an array");
        parser.pos++;
        if (parser.peek() === 0x5d) {
          parser.pos++;
          continue;
        }
        do {
          if (items.length >= MAX_BATCH_ITEMS) throw new ValidationError(`items: at most ${MAX_BATCH_ITEMS} items per batch`, "items");
          const prefix = `items[${items.length}].`;
          parser.peek();
          try {
            const parsed = parseEnvelopeAt(text, parser.pos, options);
            parser.pos = parsed.end;
            items.push(toCheckEnvelope(parsed, prefix));
          } catch (err) {
            asFieldError(err, prefix);
          }
        } while (parser.next(0x5d, 'expected "," or "]"'));
      } while (parser.next(0x7d, 'expected "," or "}"'));
    } else parser.pos++;
    parser.skipWs();
    if (parser.pos < text.length) parser.unexpected("unexpected data after the JSON value");
  } catch (err) {
    asFieldError(err, "");
  }
  if (!sawItems) throw new ValidationError("items: required", "items");
  if (items.length === 0) throw new ValidationError("items: at least one item", "items");
  return items;
}
