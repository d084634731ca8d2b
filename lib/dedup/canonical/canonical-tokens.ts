import { canonicalNumber } from "./canonical-number";
import { CanonicalJsonError } from "./errors";
import type { CanonicalSink } from "./canonical-sink";
import { HAS_EXPONENT, HAS_FRACTION, JsonScanner } from "./json-scanner";
import { PlainJsonParser } from "./plain-json";

/** 1 for ASCII that a string holds as is: not a control character, quote or backslash. */
const PLAIN_ASCII = new Uint8Array(128).map((_, c) => (c >= 0x20 && c !== 0x22 && c !== 0x5c ? 1 : 0));

/** Scalars straight from JSON text to canonical bytes, plus key helpers for objects. */
export class CanonicalTokens extends JsonScanner {
  readonly sink: CanonicalSink;
  /** Numbers by exact decimal value (`canonicalNumber`) instead of as sent. */
  numbers = false;

  constructor(text: string, pos: number, maxDepth: number, sink: CanonicalSink) {
    super(text, pos, maxDepth);
    this.sink = sink;
  }

  /** Numbers keep their exact source text (or its `canonicalNumber`); literals are copied as they are. */
  protected scalar(c: number): void {
    const start = this.pos;
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const shape = this.scanNumber();
      if (this.numbers && this.notCanonicalNumber(start, shape)) return this.writeNumber(canonicalNumber(this.text.slice(start, this.pos)));
    } else if (c === 0x74) this.readLiteral("true");
    else if (c === 0x66) this.readLiteral("false");
    else if (c === 0x6e) this.readLiteral("null");
    else this.unexpected("expected a JSON value");
    const text = this.text;
    const sink = this.sink;
    const out = sink.out;
    let o = sink.o;
    for (let i = start; i < this.pos; i++) out[o++] = text.charCodeAt(i);
    sink.o = o;
  }

  /**
   * Whether a number's text differs from its `canonicalNumber`, from what the scan saw: one with an
   * exponent is rewritten; a decimal is canonical unless it ends in 0 or starts 0.000000; an
   * integer is but for `-0` and more than 21 trailing zeros (so more than 22 digits).
   */
  private notCanonicalNumber(start: number, shape: number): boolean {
    const text = this.text;
    const end = this.pos;
    if (shape & HAS_EXPONENT) return true;
    const intStart = text.charCodeAt(start) === 0x2d ? start + 1 : start;
    if (shape & HAS_FRACTION) {
      // Past a leading 0 comes the point: "0." then six zeros is too small for the plain form.
      return text.charCodeAt(end - 1) === 0x30 || (text.charCodeAt(intStart) === 0x30 && text.startsWith("000000", intStart + 2));
    }
    if (end - intStart === 1) return intStart > start && text.charCodeAt(intStart) === 0x30;
    if (end - intStart <= 22) return false;
    let zeros = 0;
    while (text.charCodeAt(end - 1 - zeros) === 0x30) zeros++;
    return zeros > 21;
  }

  private writeNumber(s: string): void {
    const sink = this.sink;
    sink.ensure(s.length);
    const out = sink.out;
    let o = sink.o;
    for (let i = 0; i < s.length; i++) out[o++] = s.charCodeAt(i);
    sink.o = o;
  }

  protected string(): void {
    const text = this.text;
    const sink = this.sink;
    const out = sink.out;
    const start = this.pos + 1;
    let i = start;
    let o = sink.o;
    out[o++] = 0x22;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        if (PLAIN_ASCII[c] === 1) {
          out[o++] = c;
        } else if (c === 0x22) {
          break;
        } else if (c === 0x5c) {
          return this.decodedString();
        } else {
          this.badStringChar(i);
        }
      } else if (c < 0x800) {
        out[o++] = 0xc0 | (c >> 6);
        out[o++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        out[o++] = 0xe0 | (c >> 12);
        out[o++] = 0x80 | ((c >> 6) & 0x3f);
        out[o++] = 0x80 | (c & 0x3f);
      } else if (c <= 0xdbff) {
        const low = text.charCodeAt(i + 1);
        if (!(low >= 0xdc00 && low <= 0xdfff)) return this.decodedString();
        const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        out[o++] = 0xf0 | (cp >> 18);
        out[o++] = 0x80 | ((cp >> 12) & 0x3f);
        out[o++] = 0x80 | ((cp >> 6) & 0x3f);
        out[o++] = 0x80 | (cp & 0x3f);
        i++;
      } else if (c === c) {
        return this.decodedString();
      } else {
        this.badStringChar(i);
      }
      i++;
    }
    out[o++] = 0x22;
    sink.o = o;
    this.pos = i + 1;
  }

  // Escapes and surrogates: decode first so text and in-memory values share one encoder.
  private decodedString(): void {
    const s = this.readString();
    this.sink.ensure(6 * s.length + 2 + 3 * (this.text.length - this.pos) + 16);
    this.sink.writeString(s);
  }

  /** The decoded string at text offset `at`, without moving. */
  protected keyAt(at: number): string {
    const pos = this.pos;
    this.pos = at;
    const key = this.readString();
    this.pos = pos;
    return key;
  }

  // Sorting only says that a key repeats; a second scan of the object, which writes
  // nothing, says where.
  protected throwDuplicate(open: number): never {
    const names = new Set<string>();
    const scan = new PlainJsonParser(this.text, open + 1, Infinity);
    do {
      scan.peek();
      const at = scan.pos;
      const name = scan.readString();
      if (names.has(name)) this.throwDuplicateAt(name, at);
      names.add(name);
      scan.peek();
      scan.pos++;
      scan.value(0);
    } while (scan.next(0x7d, "unreachable: the object was read once already"));
    throw new CanonicalJsonError("duplicate_field", "duplicate field", open);
  }

  protected throwDuplicateAt(key: string, at: number): never {
    const error = new CanonicalJsonError("duplicate_field", `duplicate field ${JSON.stringify(key)}`, at);
    error.segments.push(key);
    throw error;
  }
}
