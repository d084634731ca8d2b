/**
 * The one CSV writer of weir (CLI key export, console audit export). Spreadsheets
 * evaluate formulas: a text cell starting with = + - @, a tab or a carriage return
 * gets a leading apostrophe so it is shown as text (OWASP "CSV injection"), then
 * every cell is quoted per RFC 4180. Message ids come from upstream producers, so
 * no cell is trusted.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text a spreadsheet shows as it is; numbers and dates weir produced itself pass unchanged. */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""';
  const text = value instanceof Date ? value.toISOString() : typeof value === "string" ? neutraliseCell(value) : String(value);
  return `"${text.replace(/"/g, '""')}"`;
}

export const csvRow = (values: readonly unknown[]) => `${values.map(csvCell).join(",")}\r\n`;
