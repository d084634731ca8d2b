import { CanonicalJsonError, type CanonicalJsonErrorCode } from "./errors";

export const DEFAULT_MAX_DEPTH = 64;

/** What `scanNumber` saw besides the integer part, as bits. */
export const HAS_FRACTION = 1;
export const HAS_EXPONENT = 2;

/** RFC 8259 lexer over a JS string: whitespace, strings, numbers and literals. */
export class JsonScanner {
  readonly text: string;
  pos: number;
  readonly maxDepth: number;

  constructor(text: string, pos: number, maxDepth: number) {
    this.text = text;
    this.pos = pos;
    this.maxDepth = maxDepth;
  }

  skipWs(): void {
    const text = this.text;
    let i = this.pos;
    let c = text.charCodeAt(i);
    if (c > 0x20) return;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++i);
    this.pos = i;
  }

  /** Skips whitespace and returns the code unit at `pos` (NaN at the end). */
  peek(): number {
    const c = this.text.charCodeAt(this.pos);
    if (c > 0x20) return c;
    this.skipWs();
    return this.text.charCodeAt(this.pos);
  }

  /** Reads the string at `pos` (on its opening quote) and returns it decoded. */
  readString(): string {
    const text = this.text;
    const start = this.pos + 1;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) return this.readEscapedString(start, i);
      if (!(c >= 0x20)) this.badStringChar(i);
      i++;
    }
    this.pos = i + 1;
    return text.slice(start, i);
  }

  private readEscapedString(start: number, i: number): string {
    const text = this.text;
    let out = "";
    let chunk = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        out += text.slice(chunk, i);
        const e = text.charCodeAt(i + 1);
        let unit: number;
        if (e === 0x75) {
          unit = hexQuad(text, i + 2);
          if (unit < 0) this.fail("invalid_json", "invalid \\u escape: expected four hex digits", i);
          i += 6;
        } else {
          unit = simpleEscape(e);
          if (unit < 0) this.fail("invalid_json", "invalid escape sequence in string", i);
          i += 2;
        }
        out += String.fromCharCode(unit);
        chunk = i;
        continue;
      }
      if (!(c >= 0x20)) this.badStringChar(i);
      i++;
    }
    this.pos = i + 1;
    return out + text.slice(chunk, i);
  }

  protected badStringChar(i: number): never {
    if (i >= this.text.length) this.fail("invalid_json", "unterminated string", i);
    this.fail("invalid_json", "unescaped control character in string", i);
  }

  /** Validates the number at `pos` against the JSON grammar; moves `pos` past it. Returns `HAS_*` bits. */
  scanNumber(): number {
    const text = this.text;
    let i = this.pos;
    let shape = 0;
    let c = text.charCodeAt(i);
    if (c === 0x2d) c = text.charCodeAt(++i);
    if (c === 0x30) {
      c = text.charCodeAt(++i);
      if (c >= 0x30 && c <= 0x39) this.fail("invalid_json", "leading zeros are not allowed in numbers", i - 1);
    } else if (c >= 0x31 && c <= 0x39) {
      do c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    } else {
      this.fail("invalid_json", "expected a digit", i);
    }
    if (c === 0x2e) {
      shape = HAS_FRACTION;
      c = text.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) this.fail("invalid_json", "expected a digit after the decimal point", i);
      do c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    }
    if (c === 0x65 || c === 0x45) {
      shape |= HAS_EXPONENT;
      c = text.charCodeAt(++i);
      if (c === 0x2b || c === 0x2d) c = text.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) this.fail("invalid_json", "expected a digit in the exponent", i);
      do c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    }
    this.pos = i;
    return shape;
  }

  /** Consumes `word` (true, false or null) at `pos`. */
  readLiteral(word: string): void {
    if (!this.text.startsWith(word, this.pos)) this.unexpected("expected a JSON value");
    this.pos += word.length;
  }

  checkDepth(depth: number): void {
    if (depth > this.maxDepth) {
      this.fail("too_deep", `nesting deeper than the limit of ${this.maxDepth}`, this.pos);
    }
  }

  unexpected(expected: string): never {
    const i = this.pos;
    if (i >= this.text.length) this.fail("invalid_json", `unexpected end of input, ${expected}`, i);
    this.fail("invalid_json", `unexpected character ${JSON.stringify(this.text.charAt(i))}, ${expected}`, i);
  }

  fail(code: CanonicalJsonErrorCode, detail: string, position: number): never {
    throw new CanonicalJsonError(code, detail, position);
  }
}

function simpleEscape(e: number): number {
  switch (e) {
    case 0x22: return 0x22;
    case 0x5c: return 0x5c;
    case 0x2f: return 0x2f;
    case 0x62: return 0x08;
    case 0x66: return 0x0c;
    case 0x6e: return 0x0a;
    case 0x72: return 0x0d;
    case 0x74: return 0x09;
    default: return -1;
  }
}

function hexQuad(text: string, i: number): number {
  let unit = 0;
  for (let k = 0; k < 4; k++) {
    const c = text.charCodeAt(i + k);
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    unit = unit * 16 + d;
  }
  return unit;
}
