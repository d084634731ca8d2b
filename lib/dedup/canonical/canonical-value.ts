import { canonicalNumber } from "./canonical-number";
import { CanonicalJsonError } from "./errors";
import type { Normalise } from "./path-filter";
import { CanonicalSink } from "./canonical-sink";
import { DEFAULT_MAX_DEPTH } from "./json-scanner";

export interface CanonicalValueOptions {
  /** Deepest allowed nesting of objects and arrays (default 64); also stops cycles. */
  maxDepth?: number;
  /** The normalisations of the text path (`compileNormalise`), applied the same way. */
  normalise?: Normalise;
}

const NONE: Normalise = { numbers: false, nulls: false, emptyContainers: false };

/**
 * Canonical form of a JS value already in memory, byte for byte the text path's form for
 * the same tree. Numbers become their shortest round-trip text (`String(n)`), bigints their
 * integer text; only plain objects, arrays and JSON primitives are accepted.
 */
export function canonicalizeValue(value: unknown, options?: CanonicalValueOptions): string {
  return encodeValue(value, options, (sink) => sink.toString(0, sink.o));
}

export function encodeValue<T>(
  value: unknown,
  options: CanonicalValueOptions | undefined,
  finish: (sink: CanonicalSink) => T,
): T {
  const sink = new CanonicalSink(1024);
  try {
    encode(sink, value, 0, options?.maxDepth ?? DEFAULT_MAX_DEPTH, options?.normalise ?? NONE);
    return finish(sink);
  } catch (error) {
    if (error instanceof CanonicalJsonError) error.resolvePath();
    throw error;
  } finally {
    sink.release();
  }
}

function encode(sink: CanonicalSink, value: unknown, depth: number, maxDepth: number, norm: Normalise): void {
  switch (typeof value) {
    case "string":
      return sink.writeString(value);
    case "number":
      if (!Number.isFinite(value)) throw invalid(`${value} is not a JSON number`);
      return writeAscii(sink, norm.numbers ? canonicalNumber(String(value)) : String(value));
    case "bigint":
      return writeAscii(sink, value.toString());
    case "boolean":
      return writeAscii(sink, value ? "true" : "false");
    case "object":
      if (value === null) return writeAscii(sink, "null");
      if (depth + 1 > maxDepth) {
        throw new CanonicalJsonError("too_deep", `nesting deeper than the limit of ${maxDepth}`);
      }
      if (Array.isArray(value)) return encodeArray(sink, value, depth + 1, maxDepth, norm);
      return encodeObject(sink, value, depth + 1, maxDepth, norm);
    default:
      throw invalid(`a value of type ${typeof value} is not JSON`);
  }
}

function encodeArray(sink: CanonicalSink, array: readonly unknown[], depth: number, maxDepth: number, norm: Normalise): void {
  writeAscii(sink, "[");
  let index = 0;
  try {
    for (; index < array.length; index++) {
      if (!(index in array)) throw invalid("sparse arrays are not JSON");
      if (index > 0) writeAscii(sink, ",");
      encode(sink, array[index], depth, maxDepth, norm);
    }
  } catch (error) {
    if (error instanceof CanonicalJsonError) error.segments.push(String(index));
    throw error;
  }
  writeAscii(sink, "]");
}

function encodeObject(sink: CanonicalSink, object: object, depth: number, maxDepth: number, norm: Normalise): void {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    throw invalid(`${(object.constructor as { name?: string } | undefined)?.name ?? "this object"} is not a plain object`);
  }
  writeAscii(sink, "{");
  const base = sink.top;
  for (const name of Object.keys(object)) {
    const rewind = sink.o;
    if (sink.top > base) writeAscii(sink, ",");
    const start = sink.o;
    sink.writeString(name);
    sink.pushMember(start, sink.o);
    writeAscii(sink, ":");
    const valueAt = sink.o;
    try {
      encode(sink, (object as Record<string, unknown>)[name], depth, maxDepth, norm);
    } catch (error) {
      if (error instanceof CanonicalJsonError) error.segments.push(name);
      throw error;
    }
    // As the text path: a null or empty member left out (a JS object's keys are distinct already).
    if (leftOut(sink, valueAt, norm)) {
      sink.o = rewind;
      sink.top -= 3;
    }
  }
  if (!sink.sortMembers(base)) throw new CanonicalJsonError("duplicate_field", "duplicate field");
  writeAscii(sink, "}");
}

function leftOut(sink: CanonicalSink, at: number, norm: Normalise): boolean {
  const length = sink.o - at;
  const c = sink.out[at];
  if (length === 4) return norm.nulls && c === 0x6e;
  return length === 2 && norm.emptyContainers && (c === 0x7b || c === 0x5b);
}

function writeAscii(sink: CanonicalSink, s: string): void {
  sink.ensure(s.length);
  const out = sink.out;
  let o = sink.o;
  for (let i = 0; i < s.length; i++) out[o++] = s.charCodeAt(i);
  sink.o = o;
}

function invalid(detail: string): CanonicalJsonError {
  return new CanonicalJsonError("invalid_json", detail);
}
