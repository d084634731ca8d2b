/**
 * PostgreSQL's hashtext() for a text of the default (deterministic) collation: hash_bytes() of
 * src/common/hashfn.c (Bob Jenkins' lookup3, 2006) over the UTF-8 bytes, as a little-endian
 * server computes it, read as int4. Citus places a text distribution value by it (worker_hash):
 * the shard whose [shardminvalue, shardmaxvalue] holds this number. A node that computes it
 * itself sends a key's statement straight to the worker of its shard (db/citus-placement.ts).
 */

const encoder = new TextEncoder();

const rot = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

export function hashText(value: string): number {
  const k = encoder.encode(value);
  let len = k.length;
  let a = (0x9e3779b9 + len + 3923095) | 0;
  let b = a;
  let c = a;
  let i = 0;
  // Words read little-endian: the aligned and unaligned paths of a little-endian server agree.
  const word = (at: number): number => k[at]! | (k[at + 1]! << 8) | (k[at + 2]! << 16) | (k[at + 3]! << 24);
  while (len >= 12) {
    a = (a + word(i)) | 0;
    b = (b + word(i + 4)) | 0;
    c = (c + word(i + 8)) | 0;
    // mix(a, b, c)
    a = (a - c) | 0; a ^= rot(c, 4); c = (c + b) | 0;
    b = (b - a) | 0; b ^= rot(a, 6); a = (a + c) | 0;
    c = (c - b) | 0; c ^= rot(b, 8); b = (b + a) | 0;
    a = (a - c) | 0; a ^= rot(c, 16); c = (c + b) | 0;
    b = (b - a) | 0; b ^= rot(a, 19); a = (a + c) | 0;
    c = (c - b) | 0; c ^= rot(b, 4); b = (b + a) | 0;
    i += 12;
    len -= 12;
  }
  // The last 11 bytes; the lowest byte of c is reserved for the length (already in the seed).
  switch (len) {
    case 11: c = (c + (k[i + 10]! << 24)) | 0;
    case 10: c = (c + (k[i + 9]! << 16)) | 0;
    case 9: c = (c + (k[i + 8]! << 8)) | 0;
    case 8: b = (b + (k[i + 7]! << 24)) | 0;
    case 7: b = (b + (k[i + 6]! << 16)) | 0;
    case 6: b = (b + (k[i + 5]! << 8)) | 0;
    case 5: b = (b + k[i + 4]!) | 0;
    case 4: a = (a + (k[i + 3]! << 24)) | 0;
    case 3: a = (a + (k[i + 2]! << 16)) | 0;
    case 2: a = (a + (k[i + 1]! << 8)) | 0;
    case 1: a = (a + k[i]!) | 0;
  }
  // final(a, b, c)
  c ^= b; c = (c - rot(b, 14)) | 0;
  a ^= c; a = (a - rot(c, 11)) | 0;
  b ^= a; b = (b - rot(a, 25)) | 0;
  c ^= b; c = (c - rot(b, 16)) | 0;
  a ^= c; a = (a - rot(c, 4)) | 0;
  b ^= a; b = (b - rot(a, 14)) | 0;
  c ^= b; c = (c - rot(b, 24)) | 0;
  return c;
}
