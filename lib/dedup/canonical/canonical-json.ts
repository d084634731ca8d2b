import { CanonicalJsonError } from "./errors";
import { CanonicalSink } from "./canonical-sink";
import { CanonicalTokens } from "./canonical-tokens";
import type { PathFilter } from "./path-filter";
import { DEFAULT_MAX_DEPTH } from "./json-scanner";

export interface CanonicalOptions {
  /** Deepest allowed nesting of objects and arrays (default 64). */
  maxDepth?: number;
  /** What is hashed of the value (included paths, minus ignored ones), from `compilePathFilter`. */
  filter?: PathFilter | null;
}

/** Whether a member or element is left out of the hash: ignored, or outside every included path. */
function dropped(parent: PathFilter | null, child: PathFilter | undefined): boolean {
  return child === undefined ? parent !== null && parent.keepsOnlyListed : child.ignored;
}

/**
 * Single pass from JSON text to canonical UTF-8 bytes: members sorted by key, strings
 * re-encoded canonically, numbers kept as their source text. The output is itself JSON,
 * whose syntax tags every value with its type, so distinct trees never share a form.
 */
export class CanonicalParser extends CanonicalTokens {
  /** Members whose value is `null` are left out. */
  nulls = false;
  /** Members whose value is `{}` or `[]` once written are left out. */
  emptyContainers = false;


  /** Writes the value at `pos` (leading whitespace skipped). */
  value(depth: number, trie: PathFilter | null): void {
    const c = this.peek();
    if (c === 0x22) this.string();
    else if (c === 0x7b) this.object(depth + 1, trie);
    else if (c === 0x5b) this.array(depth + 1, trie);
    else this.scalar(c);
  }

  private object(depth: number, trie: PathFilter | null): void {
    this.checkDepth(depth);
    const sink = this.sink;
    const open = this.pos;
    sink.out[sink.o++] = 0x7b;
    this.pos++;
    if (this.peek() === 0x7d) {
      this.pos++;
      sink.out[sink.o++] = 0x7d;
      return;
    }
    const base = sink.top;
    const names: Set<string> | null = trie === null ? null : new Set();
    // Members left out by normalisation are sorted with the rest (their keys count as repeats), then removed.
    let leavingOut = false;
    let keyAt = -1;
    try {
      for (;;) {
        if (this.peek() !== 0x22) this.unexpected("expected a field name");
        const rewind = sink.o;
        if (sink.top > base) sink.out[sink.o++] = 0x2c;
        const memberStart = sink.o;
        let child: PathFilter | undefined;
        if (names !== null && trie !== null) child = this.lookUpKey(trie, names);
        const at = this.pos;
        this.string();
        keyAt = at;
        const keyEnd = sink.o;
        if (this.peek() !== 0x3a) this.unexpected('expected ":"');
        this.pos++;
        sink.out[sink.o++] = 0x3a;
        if (dropped(trie, child)) {
          this.value(depth, null);
          sink.o = rewind;
        } else {
          sink.pushMember(memberStart, keyEnd);
          const valueAt = sink.o;
          this.value(depth, child ?? null);
          if (this.leftOut(valueAt)) {
            sink.leaveOutLast();
            leavingOut = true;
          }
        }
        keyAt = -1;
        const c = this.peek();
        if (c === 0x2c) {
          this.pos++;
        } else if (c === 0x7d) {
          this.pos++;
          break;
        } else {
          this.unexpected('expected "," or "}"');
        }
      }
    } catch (error) {
      if (keyAt >= 0 && error instanceof CanonicalJsonError) error.segments.push(this.keyAt(keyAt));
      throw error;
    }
    if (!sink.sortMembers(base, leavingOut)) this.throwDuplicate(open);
    sink.out[sink.o++] = 0x7d;
  }

  /** Whether the value written from `at` is one that normalisation leaves out of its object. */
  private leftOut(at: number): boolean {
    const sink = this.sink;
    const length = sink.o - at;
    if (length === 4) return this.nulls && sink.out[at] === 0x6e;
    if (length !== 2) return false;
    const c = sink.out[at];
    return this.emptyContainers && (c === 0x7b || c === 0x5b);
  }

  private lookUpKey(trie: PathFilter, names: Set<string>): PathFilter | undefined {
    const at = this.pos;
    const name = this.keyAt(at);
    if (names.has(name)) this.throwDuplicateAt(name, at);
    names.add(name);
    return trie.children.get(name);
  }

  private array(depth: number, trie: PathFilter | null): void {
    this.checkDepth(depth);
    const sink = this.sink;
    sink.out[sink.o++] = 0x5b;
    this.pos++;
    if (this.peek() === 0x5d) {
      this.pos++;
      sink.out[sink.o++] = 0x5d;
      return;
    }
    const first = sink.o;
    let index = 0;
    let inElement = false;
    try {
      for (;;) {
        inElement = true;
        const rewind = sink.o;
        if (rewind > first) sink.out[sink.o++] = 0x2c;
        const child = trie === null ? undefined : trie.children.get(String(index));
        if (dropped(trie, child)) {
          this.value(depth, null);
          sink.o = rewind;
        } else {
          this.value(depth, child ?? null);
        }
        inElement = false;
        index++;
        const c = this.peek();
        if (c === 0x2c) {
          this.pos++;
        } else if (c === 0x5d) {
          this.pos++;
          break;
        } else {
          this.unexpected('expected "," or "]"');
        }
      }
    } catch (error) {
      if (inElement && error instanceof CanonicalJsonError) error.segments.push(String(index));
      throw error;
    }
    sink.out[sink.o++] = 0x5d;
  }
}

export interface CanonicalResult {
  canonical: string;
  /** Offset just past the value (trailing whitespace is not consumed). */
  end: number;
}

export interface CanonicalHashResult {
  /** SHA-256 of the canonical form's UTF-8 bytes, lowercase hex. */
  hash: string;
  /** Only when asked for: decoding the bytes back to a string costs a pass. */
  canonical?: string;
  end: number;
}

/** Canonicalizes the JSON value starting at `start` (leading whitespace skipped). */
export function canonicalizeAt(text: string, start: number, options?: CanonicalOptions): CanonicalResult {
  const sink = new CanonicalSink(capacityFor(text, start));
  try {
    const end = writeCanonical(sink, text, start, options?.filter ?? null, options?.maxDepth, false);
    return { canonical: sink.toString(0, sink.o), end };
  } finally {
    sink.release();
  }
}

/** Canonicalizes a whole JSON text; only whitespace may surround the value. */
export function canonicalizeJson(text: string, options?: CanonicalOptions): string {
  const sink = new CanonicalSink(capacityFor(text, 0));
  try {
    writeCanonical(sink, text, 0, options?.filter ?? null, options?.maxDepth, true);
    return sink.toString(0, sink.o);
  } finally {
    sink.release();
  }
}

export interface HashJsonOptions extends CanonicalOptions {
  /** Also decode and return the canonical form. */
  keepCanonical?: boolean;
  /** The value must span the rest of the text (trailing whitespace allowed). */
  whole?: boolean;
}

/** SHA-256 of the canonical form of the value at `start`, straight from its bytes. */
export function hashJsonAt(text: string, start: number, options?: HashJsonOptions): CanonicalHashResult {
  return hashJson(text, start, options?.filter ?? null, options?.maxDepth, options?.whole === true, options?.keepCanonical === true);
}

// Options are read once, at the door: a spread copy of them passed down to the parser (a new
// object, shaped unlike the caller's) cost about a tenth of a 1 KB hash (profile of the bench).
export function hashJson(
  text: string,
  start: number,
  filter: PathFilter | null,
  maxDepth: number | undefined,
  whole: boolean,
  keepCanonical: boolean,
): CanonicalHashResult {
  const sink = new CanonicalSink(capacityFor(text, start));
  try {
    const end = writeCanonical(sink, text, start, filter, maxDepth, whole);
    const hash = sink.digest(0, sink.o);
    return keepCanonical ? { hash, canonical: sink.toString(0, sink.o), end } : { hash, end };
  } finally {
    sink.release();
  }
}

// The hot loops write without bounds checks of their own: no code unit of the input
// becomes more than 3 bytes (`\n` becomes `\u000a`, 2 to 6), except raw lone surrogates,
// whose slow path grows the buffer itself.
function capacityFor(text: string, start: number): number {
  return 3 * (text.length - start) + 16;
}

function writeCanonical(
  sink: CanonicalSink,
  text: string,
  start: number,
  filter: PathFilter | null,
  maxDepth: number | undefined,
  whole: boolean,
): number {
  const parser = new CanonicalParser(text, start, maxDepth ?? DEFAULT_MAX_DEPTH, sink);
  const normalise = filter?.normalise;
  if (normalise !== undefined) {
    parser.numbers = normalise.numbers;
    parser.nulls = normalise.nulls;
    parser.emptyContainers = normalise.emptyContainers;
  }
  try {
    // A filter of normalisations alone has nothing to look up by key.
    parser.value(0, filter !== null && filter.children.size > 0 ? filter : null);
    const end = parser.pos;
    if (whole) {
      parser.skipWs();
      if (parser.pos < text.length) parser.fail("invalid_json", "unexpected data after the JSON value", parser.pos);
    }
    return end;
  } catch (error) {
    if (error instanceof CanonicalJsonError) error.resolvePath();
    throw error;
  }
}
