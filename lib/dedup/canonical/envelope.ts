import { hashJsonAt } from "./canonical-json";
import { CanonicalJsonError, escapePointerToken } from "./errors";
import type { PathFilter } from "./path-filter";
import { DEFAULT_MAX_DEPTH } from "./json-scanner";
import { PlainJsonParser, type JsonPlainValue } from "./plain-json";

export type EnvelopeFields = { [field: string]: JsonPlainValue };

export interface EnvelopeOptions {
  /** The member hashed structurally instead of materialised, e.g. "payload". */
  hashedField: string;
  /** Nesting limit, counted from the envelope for plain members and from the hashed value itself. */
  maxDepth?: number;
  /**
   * The path filter for the hashed member, or a function that picks it from the members read
   * before it (typically by `serviceId`); it returns undefined when it cannot tell yet.
   */
  filter?: PathFilter | null | ((fieldsSoFar: Readonly<EnvelopeFields>) => PathFilter | null | undefined);
  /** Also decode the canonical form of the hashed member. */
  keepCanonical?: boolean;
}

export interface HashedMember {
  /** [start, end) of the member's value in the text. */
  start: number;
  end: number;
  /** The value's exact source text, for storage and diffs. */
  raw: string;
  hash: string;
  canonical?: string;
  /** The path filter applied; undefined when it was not known yet (none was applied). */
  filter: PathFilter | null | undefined;
}

export interface ParsedEnvelope {
  /** Every member but the hashed one, in a null-prototype object. */
  fields: EnvelopeFields;
  /** Absent when the envelope has no such member. */
  hashed: HashedMember | undefined;
  end: number;
}

/**
 * One pass over a request like `{"serviceId":…,"messageId":…,"payload":{…}}`: plain members
 * as JS values, the hashed member as its offsets, raw text and structural hash.
 */
export function parseEnvelopeAt(text: string, pos: number, options: EnvelopeOptions): ParsedEnvelope {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const parser = new PlainJsonParser(text, pos, maxDepth);
  const fields = Object.create(null) as EnvelopeFields;
  let hashed: HashedMember | undefined;
  try {
    if (parser.peek() !== 0x7b) parser.unexpected("expected a JSON object");
    parser.pos++;
    if (parser.peek() === 0x7d) {
      parser.pos++;
      return { fields, hashed, end: parser.pos };
    }
    do {
      parser.peek();
      const at = parser.pos;
      const name = parser.fieldName(fields);
      if (name === options.hashedField) {
        if (hashed !== undefined) throwDuplicate(name, at);
        parser.peek();
        hashed = hashMember(text, parser.pos, options, fields, maxDepth);
        parser.pos = hashed.end;
        continue;
      }
      try {
        fields[name] = parser.value(1);
      } catch (error) {
        if (error instanceof CanonicalJsonError) error.segments.push(name);
        throw error;
      }
    } while (parser.next(0x7d, 'expected "," or "}"'));
    return { fields, hashed, end: parser.pos };
  } catch (error) {
    if (error instanceof CanonicalJsonError && error.path === undefined) error.resolvePath();
    throw error;
  }
}

/** `parseEnvelopeAt` over a whole text: only whitespace may follow the envelope. */
export function parseEnvelope(text: string, options: EnvelopeOptions): ParsedEnvelope {
  const envelope = parseEnvelopeAt(text, 0, options);
  const parser = new PlainJsonParser(text, envelope.end, 0);
  parser.skipWs();
  if (parser.pos < text.length) {
    throw new CanonicalJsonError("invalid_json", "unexpected data after the JSON value", parser.pos, "");
  }
  return envelope;
}

/** Hashes the member again with a path filter learnt after it was read; a no-op when they match. */
export function rehashMember(
  text: string,
  member: HashedMember,
  filter: PathFilter | null,
  options?: { maxDepth?: number; keepCanonical?: boolean },
): HashedMember {
  if (member.filter === filter || (member.filter === undefined && filter === null)) return { ...member, filter };
  const { hash, canonical } = hashJsonAt(text, member.start, { ...options, filter });
  return { ...member, hash, canonical, filter };
}

function hashMember(
  text: string,
  start: number,
  options: EnvelopeOptions,
  fields: EnvelopeFields,
  maxDepth: number,
): HashedMember {
  const filter = typeof options.filter === "function" ? options.filter(fields) : options.filter;
  try {
    const result = hashJsonAt(text, start, { filter: filter ?? null, maxDepth, keepCanonical: options.keepCanonical });
    return {
      start,
      end: result.end,
      raw: text.slice(start, result.end),
      hash: result.hash,
      canonical: result.canonical,
      filter,
    };
  } catch (error) {
    if (error instanceof CanonicalJsonError) error.prefixPath(options.hashedField);
    throw error;
  }
}

function throwDuplicate(name: string, at: number): never {
  throw new CanonicalJsonError("duplicate_field", `duplicate field ${JSON.stringify(name)}`, at, "/" + escapePointerToken(name));
}
