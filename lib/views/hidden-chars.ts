/**
 * Characters that render as nothing, as a plain space, or that reorder text
 * (bidi controls): format (Cf), control (Cc), line/paragraph separators, spaces
 * other than U+0020, Hangul fillers and variation selectors. One character class: linear.
 */
const HIDDEN = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Zs}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u3164\uFE00-\uFE0F\uFFA0]/u;

const NAMES: Record<number, string> = {
  0x200b: "zero width space",
  0x200c: "zero width non-joiner",
  0x200d: "zero width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
  0x2060: "word joiner",
  0xfeff: "zero width no-break space",
  0x00a0: "no-break space",
  0x00ad: "soft hyphen",
};

export interface HiddenChar {
  code: number;
  /** The escape shown in its place, e.g. `\u200B`. */
  label: string;
}

const isHidden = (ch: string) => ch !== " " && HIDDEN.test(ch);

export const hasHidden = (text: string) => Array.from(text).some(isHidden);

/** The text cut into visible runs and hidden characters, in order. */
export function splitHidden(text: string): (string | HiddenChar)[] {
  const parts: (string | HiddenChar)[] = [];
  let run = "";
  for (const ch of text) {
    if (!isHidden(ch)) {
      run += ch;
      continue;
    }
    if (run) parts.push(run);
    run = "";
    const code = ch.codePointAt(0)!;
    const hex = code.toString(16).toUpperCase().padStart(4, "0");
    parts.push({ code, label: code > 0xffff ? `\\u{${hex}}` : `\\u${hex}` });
  }
  if (run || parts.length === 0) parts.push(run);
  return parts;
}

export function describeHidden(code: number): string {
  const hex = code.toString(16).toUpperCase().padStart(4, "0");
  return `Invisible character U+${hex}${NAMES[code] ? ` (${NAMES[code]})` : ""}`;
}
