/**
 * A JSON number's text, rewritten so that equal decimal values share one text: `1`, `1.0`, `1e0`
 * and `10E-1` all become `1`, `-0` becomes `0`. Exact: digits are moved, never parsed into a float,
 * so `9007199254740993` and `0.30000000000000001` stay themselves. Integers are written out in
 * full; a fraction too small or an integer with more than 21 trailing zeros takes an exponent.
 * The input must be a valid JSON number (the scanner's or `String(n)`'s).
 */
export function canonicalNumber(text: string): string {
  const negative = text.charCodeAt(0) === 0x2d;
  let i = negative ? 1 : 0;
  const n = text.length;
  let intEnd = i;
  while (intEnd < n && isDigit(text.charCodeAt(intEnd))) intEnd++;
  let fracEnd = intEnd;
  if (intEnd < n && text.charCodeAt(intEnd) === 0x2e) {
    fracEnd = intEnd + 1;
    while (fracEnd < n && isDigit(text.charCodeAt(fracEnd))) fracEnd++;
  }
  const fraction = fracEnd > intEnd ? text.slice(intEnd + 1, fracEnd) : "";
  let digits = text.slice(i, intEnd) + fraction;
  const exponentText = fracEnd < n ? text.slice(fracEnd + 1) : "0";
  // Leading zeros say nothing; trailing zeros move into the exponent.
  i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 0x30) i++;
  let end = digits.length;
  while (end > i && digits.charCodeAt(end - 1) === 0x30) end--;
  if (i === end) return "0";
  const trailingZeros = digits.length - end;
  digits = digits.slice(i, end);
  const sign = negative ? "-" : "";
  // Exponents of up to 15 digits are exact in a double, and so is their sum with a text length.
  const digitsOfExponent = exponentText.replace(/^[+-]/, "").length;
  if (digitsOfExponent > 15) return sign + withBigExponent(digits, BigInt(exponentText) - BigInt(fraction.length - trailingZeros));
  return sign + withExponent(digits, Number(exponentText) - fraction.length + trailingZeros);
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** `digits` × 10^`exponent`, digits with no leading or trailing zero. */
function withExponent(digits: string, exponent: number): string {
  const point = digits.length + exponent;
  if (exponent >= 0) return exponent <= 21 ? digits + "0".repeat(exponent) : scientific(digits, String(point - 1));
  if (point > 0) return `${digits.slice(0, point)}.${digits.slice(point)}`;
  if (point > -6) return `0.${"0".repeat(-point)}${digits}`;
  return scientific(digits, String(point - 1));
}

function withBigExponent(digits: string, exponent: bigint): string {
  if (exponent >= -64n && exponent <= 64n) return withExponent(digits, Number(exponent));
  return scientific(digits, String(BigInt(digits.length) + exponent - 1n));
}

function scientific(digits: string, exponent: string): string {
  return `${digits[0]}${digits.length > 1 ? "." + digits.slice(1) : ""}e${exponent}`;
}
