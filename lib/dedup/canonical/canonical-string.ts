/**
 * Canonical string: UTF-8 between quotes, escaping only `"`, `\`, control characters
 * and lone surrogates (`\uXXXX`, lowercase hex). Lone surrogates must be escaped: UTF-8
 * has no bytes for them, and U+FFFD would make them collide.
 */
export function writeCanonicalString(out: Uint8Array, o: number, s: string): number {
  const n = s.length;
  out[o++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        out[o++] = c;
      } else if (c >= 0x20) {
        out[o++] = 0x5c;
        out[o++] = c;
      } else {
        o = writeUnicodeEscape(out, o, c);
      }
    } else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        out[o++] = 0xf0 | (cp >> 18);
        out[o++] = 0x80 | ((cp >> 12) & 0x3f);
        out[o++] = 0x80 | ((cp >> 6) & 0x3f);
        out[o++] = 0x80 | (cp & 0x3f);
        i++;
      } else {
        o = writeUnicodeEscape(out, o, c);
      }
    }
  }
  out[o++] = 0x22;
  return o;
}

const HEX = "0123456789abcdef";

function writeUnicodeEscape(out: Uint8Array, o: number, c: number): number {
  out[o++] = 0x5c;
  out[o++] = 0x75;
  for (let shift = 12; shift >= 0; shift -= 4) out[o++] = HEX.charCodeAt((c >> shift) & 0xf);
  return o;
}
