/**
 * CSV for spreadsheets that evaluate formulas: a cell starting with = + - @,
 * a tab or a carriage return gets a leading apostrophe so it is shown as text
 * (OWASP "CSV injection"), then every cell is quoted per RFC 4180.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const csvRow = (values: readonly unknown[]) => `${values.map(csvCell).join(",")}\r\n`;
