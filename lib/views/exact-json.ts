import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { DEFAULT_MAX_DEPTH, JsonScanner } from "@/lib/dedup/canonical/json-scanner";

/**
 * A JSON tree that keeps numbers as their source text, as the structural hash
 * does: `9007199254740993` and `9007199254740992` stay different, and so do `1`
 * and `1.0`. JSON.parse would merge them and hide a real change.
 */
export type ExactJson =
  | { type: "null" }
  | { type: "boolean"; value: boolean }
  | { type: "number"; text: string }
  | { type: "string"; value: string }
  | { type: "array"; items: ExactJson[] }
  | { type: "object"; fields: Map<string, ExactJson> };

class ExactParser extends JsonScanner {
  value(depth: number): ExactJson {
    const c = this.peek();
    if (c === 0x22) return { type: "string", value: this.readString() };
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = this.pos;
      this.scanNumber();
      return { type: "number", text: this.text.slice(start, this.pos) };
    }
    if (c === 0x74) return this.readLiteral("true"), { type: "boolean", value: true };
    if (c === 0x66) return this.readLiteral("false"), { type: "boolean", value: false };
    if (c === 0x6e) return this.readLiteral("null"), { type: "null" };
    return this.unexpected("expected a JSON value");
  }

  private object(depth: number): ExactJson {
    this.checkDepth(depth);
    const fields = new Map<string, ExactJson>();
    this.pos++;
    if (this.peek() === 0x7d) return this.pos++, { type: "object", fields };
    for (;;) {
      if (this.peek() !== 0x22) this.unexpected("expected a field name");
      const at = this.pos;
      const name = this.readString();
      if (fields.has(name)) this.fail("duplicate_field", `duplicate field ${JSON.stringify(name)}`, at);
      if (this.peek() !== 0x3a) this.unexpected('expected ":"');
      this.pos++;
      fields.set(name, this.value(depth));
      if (!this.more(0x7d, 'expected "," or "}"')) return { type: "object", fields };
    }
  }

  private array(depth: number): ExactJson {
    this.checkDepth(depth);
    const items: ExactJson[] = [];
    this.pos++;
    if (this.peek() === 0x5d) return this.pos++, { type: "array", items };
    for (;;) {
      items.push(this.value(depth));
      if (!this.more(0x5d, 'expected "," or "]"')) return { type: "array", items };
    }
  }

  private more(close: number, expected: string): boolean {
    const c = this.peek();
    if (c === 0x2c) return this.pos++, true;
    if (c === close) return this.pos++, false;
    return this.unexpected(expected);
  }
}

/** Parses a whole JSON text; throws CanonicalJsonError like the hash does for the same input. */
export function parseExactJson(text: string): ExactJson {
  const parser = new ExactParser(text, 0, DEFAULT_MAX_DEPTH);
  const value = parser.value(0);
  if (!Number.isNaN(parser.peek())) parser.unexpected("expected the end of the document");
  return value;
}

/** Compact JSON text of a tree, numbers as they were written. */
export function renderExactJson(value: ExactJson): string {
  switch (value.type) {
    case "null":
      return "null";
    case "boolean":
      return String(value.value);
    case "number":
      return value.text;
    case "string":
      return JSON.stringify(value.value);
    case "array":
      return `[${value.items.map(renderExactJson).join(",")}]`;
    case "object":
      return `{${Array.from(value.fields, ([k, v]) => `${JSON.stringify(k)}:${renderExactJson(v)}`).join(",")}}`;
  }
}

export function exactEqual(a: ExactJson, b: ExactJson): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case "null":
      return true;
    case "boolean":
    case "string":
      return a.value === (b as typeof a).value;
    case "number":
      return a.text === (b as typeof a).text;
    case "array": {
      const other = (b as typeof a).items;
      return a.items.length === other.length && a.items.every((item, i) => exactEqual(item, other[i]!));
    }
    case "object": {
      const other = (b as typeof a).fields;
      if (a.fields.size !== other.size) return false;
      for (const [key, item] of a.fields) {
        const match = other.get(key);
        if (match === undefined || !exactEqual(item, match)) return false;
      }
      return true;
    }
  }
}

export { CanonicalJsonError };
