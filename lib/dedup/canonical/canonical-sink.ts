import { writeCanonicalString } from "./canonical-string";
import { sha256Hex } from "./sha256";

/**
 * Canonical output as UTF-8 bytes. Writing bytes instead of concatenating strings keeps
 * two-byte texts cheap, lets members be sorted in place, and feeds sha256 without a
 * second encoding pass. Buffers are pooled: every call runs synchronously to the end.
 */
const POOL_LIMIT_BYTES = 4 << 20;
let pooledOut: Uint8Array | null = null;
let pooledMarks: Int32Array | null = null;
let pooledLeftOut: Uint8Array | null = null;

export class CanonicalSink {
  out: Uint8Array;
  /** Bytes written so far. */
  o = 0;
  /** Per open object's member: start and key end offsets into `out`, and a key prefix. */
  marks: Int32Array;
  /** Per member (mark / 3): 1 when normalisation leaves it out; it stays until its object is sorted. */
  leftOut: Uint8Array;
  top = 0;

  constructor(capacity: number) {
    const out = pooledOut;
    pooledOut = null;
    this.out = out !== null && out.length >= capacity ? out : new Uint8Array(Math.max(capacity, 4096));
    this.marks = pooledMarks ?? new Int32Array(512);
    pooledMarks = null;
    this.leftOut = pooledLeftOut !== null && pooledLeftOut.length * 3 > this.marks.length ? pooledLeftOut : new Uint8Array(((this.marks.length / 3) | 0) + 1);
    pooledLeftOut = null;
  }

  /** Returns the buffers to the pool; the sink must not be used afterwards. */
  release(): void {
    const out = this.out;
    if (out.length <= POOL_LIMIT_BYTES && (pooledOut === null || pooledOut.length < out.length)) pooledOut = out;
    if (this.marks.length <= 1 << 16) {
      pooledMarks = this.marks;
      pooledLeftOut = this.leftOut;
    }
  }

  ensure(extra: number): void {
    if (this.o + extra <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.o + extra));
    grown.set(this.out.subarray(0, this.o));
    this.out = grown;
  }

  pushMember(start: number, keyEnd: number): void {
    if (this.top + 3 > this.marks.length) {
      const grown = new Int32Array(this.marks.length * 2);
      grown.set(this.marks);
      this.marks = grown;
      const flags = new Uint8Array(((grown.length / 3) | 0) + 1);
      flags.set(this.leftOut);
      this.leftOut = flags;
    }
    this.leftOut[this.top / 3] = 0;
    const out = this.out;
    const length = keyEnd - start;
    // The first three bytes after the quote settle most comparisons in one step.
    const prefix = (out[start + 1]! << 16) | (length > 2 ? out[start + 2]! << 8 : 0) | (length > 3 ? out[start + 3]! : 0);
    this.marks[this.top++] = start;
    this.marks[this.top++] = keyEnd;
    this.marks[this.top++] = prefix;
  }

  /** Marks the member pushed last as left out: it is still sorted (so its key is checked for repeats), then removed. */
  leaveOutLast(): void {
    this.leftOut[(this.top - 3) / 3] = 1;
  }

  /**
   * Sorts the members recorded since `base` by their canonical key bytes and pops them, removing
   * those left out (`leavingOut`: some are). Returns false, leaving the members unsorted, when a key repeats.
   */
  sortMembers(base: number, leavingOut = false): boolean {
    const marks = this.marks;
    const out = this.out;
    let sorted = true;
    for (let i = base + 3; i < this.top; i += 3) {
      const order = compareMembers(out, marks, i - 3, i);
      if (order === 0) return false;
      if (order > 0) {
        sorted = false;
        break;
      }
    }
    if (!sorted || leavingOut) {
      const count = (this.top - base) / 3;
      const order = sorted ? Array.from({ length: count }, (_, k) => base + 3 * k) : count <= 32 ? this.insertionOrder(base) : this.sortedOrder(base);
      if (order === null) return false;
      this.rewrite(base, order);
    }
    this.top = base;
    return true;
  }

  private rewrite(base: number, order: number[]): void {
    const count = order.length;
    // Members go past the end in key order, then back in one copy; members that stay
    // neighbours are copied together.
    const marks = this.marks;
    const from = marks[base]!;
    const end = this.o;
    this.ensure(end - from);
    const out = this.out;
    const leftOut = this.leftOut;
    let w = end;
    let k = 0;
    while (k < count) {
      let m = order[k]!;
      if (leftOut[m / 3] === 1) {
        k++;
        continue;
      }
      const start = marks[m]!;
      while (++k < count && order[k] === m + 3 && leftOut[(m + 3) / 3] === 0) m += 3;
      const stop = m + 3 < this.top ? marks[m + 3]! - 1 : end;
      if (w > end) out[w++] = 0x2c;
      copyBytes(out, start, stop, w);
      w += stop - start;
    }
    copyBytes(out, end, w, from);
    this.o = from + (w - end);
  }

  /** Mark offsets of the members in key order, or null when a key repeats. */
  private insertionOrder(base: number): number[] | null {
    const marks = this.marks;
    const out = this.out;
    const order: number[] = [];
    for (let m = base; m < this.top; m += 3) {
      let j = order.length;
      order.push(m);
      for (; j > 0; j--) {
        const prev = order[j - 1]!;
        const cmp = compareMembers(out, marks, prev, m);
        if (cmp === 0) return null;
        if (cmp < 0) break;
        order[j] = prev;
      }
      order[j] = m;
    }
    return order;
  }

  private sortedOrder(base: number): number[] | null {
    const marks = this.marks;
    const out = this.out;
    const order: number[] = [];
    for (let m = base; m < this.top; m += 3) order.push(m);
    order.sort((a, b) => compareMembers(out, marks, a, b));
    for (let k = 1; k < order.length; k++) if (compareMembers(out, marks, order[k - 1]!, order[k]!) === 0) return null;
    return order;
  }

  /** Writes a JS string in canonical form (see `writeCanonicalString`). */
  writeString(s: string): void {
    this.ensure(s.length * 6 + 2);
    this.o = writeCanonicalString(this.out, this.o, s);
  }

  toString(from: number, to: number): string {
    return Buffer.from(this.out.buffer, this.out.byteOffset, this.out.length).toString("utf8", from, to);
  }

  digest(from: number, to: number): string {
    return sha256Hex(this.out.subarray(from, to));
  }
}

/** Any total order works; bytewise order of the quoted canonical key is the cheapest. */
function compareMembers(out: Uint8Array, marks: Int32Array, a: number, b: number): number {
  const prefixOrder = marks[a + 2]! - marks[b + 2]!;
  if (prefixOrder !== 0) return prefixOrder;
  const aStart = marks[a]!;
  const bStart = marks[b]!;
  const aLength = marks[a + 1]! - aStart;
  const bLength = marks[b + 1]! - bStart;
  const n = Math.min(aLength, bLength);
  for (let k = 4; k < n; k++) {
    const d = out[aStart + k]! - out[bStart + k]!;
    if (d !== 0) return d;
  }
  return aLength - bLength;
}

function copyBytes(out: Uint8Array, start: number, stop: number, to: number): void {
  if (stop - start > 16) {
    out.copyWithin(to, start, stop);
    return;
  }
  for (let i = start; i < stop; i++) out[to++] = out[i]!;
}
