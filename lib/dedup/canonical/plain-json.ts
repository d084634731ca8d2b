import { CanonicalJsonError } from "./errors";
import { DEFAULT_MAX_DEPTH, JsonScanner } from "./json-scanner";

/** A parsed JSON value; objects have a null prototype, so any field name is just data. */
export type JsonPlainValue = null | boolean | number | string | JsonPlainValue[] | { [field: string]: JsonPlainValue };

export interface PlainValueResult {
  value: JsonPlainValue;
  /** Offset just past the value (trailing whitespace is not consumed). */
  end: number;
}

/**
 * Strict JSON to JS values, for envelopes: like JSON.parse, but duplicate fields are
 * refused, depth is limited and it can start and stop in the middle of a text.
 */
export class PlainJsonParser extends JsonScanner {
  value(depth: number): JsonPlainValue {
    const c = this.peek();
    if (c === 0x22) return this.readString();
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = this.pos;
      this.scanNumber();
      return Number(this.text.slice(start, this.pos));
    }
    if (c === 0x74) return this.readLiteral("true"), true;
    if (c === 0x66) return this.readLiteral("false"), false;
    if (c === 0x6e) return this.readLiteral("null"), null;
    return this.unexpected("expected a JSON value");
  }

  /** Reads a member name and the colon after it; the caller reads the value. */
  fieldName(fields: object): string {
    if (this.peek() !== 0x22) this.unexpected("expected a field name");
    const at = this.pos;
    const name = this.readString();
    if (Object.hasOwn(fields, name)) {
      const error = new CanonicalJsonError("duplicate_field", `duplicate field ${JSON.stringify(name)}`, at);
      error.segments.push(name);
      throw error;
    }
    if (this.peek() !== 0x3a) this.unexpected('expected ":"');
    this.pos++;
    return name;
  }

  /** After a member: true when another follows, false at the closing `close`. */
  next(close: number, expected: string): boolean {
    const c = this.peek();
    this.pos++;
    if (c === 0x2c) return true;
    if (c === close) return false;
    this.pos--;
    return this.unexpected(expected);
  }

  private object(depth: number): { [field: string]: JsonPlainValue } {
    this.checkDepth(depth);
    const fields = Object.create(null) as { [field: string]: JsonPlainValue };
    this.pos++;
    if (this.peek() === 0x7d) {
      this.pos++;
      return fields;
    }
    do {
      const name = this.fieldName(fields);
      try {
        fields[name] = this.value(depth);
      } catch (error) {
        if (error instanceof CanonicalJsonError) error.segments.push(name);
        throw error;
      }
    } while (this.next(0x7d, 'expected "," or "}"'));
    return fields;
  }

  private array(depth: number): JsonPlainValue[] {
    this.checkDepth(depth);
    const items: JsonPlainValue[] = [];
    this.pos++;
    if (this.peek() === 0x5d) {
      this.pos++;
      return items;
    }
    do {
      try {
        items.push(this.value(depth));
      } catch (error) {
        if (error instanceof CanonicalJsonError) error.segments.push(String(items.length));
        throw error;
      }
    } while (this.next(0x5d, 'expected "," or "]"'));
    return items;
  }
}

/** Parses the JSON value at `pos` (leading whitespace skipped) into plain JS values. */
export function parseJsonValueAt(text: string, pos: number, options?: { maxDepth?: number }): PlainValueResult {
  const parser = new PlainJsonParser(text, pos, options?.maxDepth ?? DEFAULT_MAX_DEPTH);
  try {
    const value = parser.value(0);
    return { value, end: parser.pos };
  } catch (error) {
    if (error instanceof CanonicalJsonError) error.resolvePath();
    throw error;
  }
}
