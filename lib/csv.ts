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

/**
 * CSV read in keyset chunks while the response streams, so a large download never sits in memory
 * at once, and stops after `maxRows`. The first chunk is read before it returns: a failing query
 * is an error status, not a download cut after "200 OK".
 */
export async function keysetCsvStream<Row, Cursor>(spec: {
  header: readonly string[];
  maxRows: number;
  chunk?: number;
  read: (after: Cursor | undefined, limit: number) => Promise<Row[]>;
  cursorOf: (row: Row) => Cursor;
  cells: (row: Row) => readonly unknown[];
  start?: Cursor;
}): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const chunk = spec.chunk ?? 1_000;
  let after = spec.start;
  let sent = 0;
  let done = false;
  const nextChunk = async (): Promise<string> => {
    const limit = Math.min(chunk, spec.maxRows - sent);
    const rows = limit > 0 ? await spec.read(after, limit) : [];
    sent += rows.length;
    // A stream pulls one chunk at a time: nothing else moves `after` during the await.
    // eslint-disable-next-line require-atomic-updates
    if (rows.length > 0) after = spec.cursorOf(rows.at(-1)!);
    if (rows.length < limit || limit <= 0) done = true;
    return rows.map((row) => csvRow(spec.cells(row))).join("");
  };
  const first = csvRow(spec.header) + (await nextChunk());
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
      if (done) controller.close();
    },
    async pull(controller) {
      const text = await nextChunk();
      if (text !== "") controller.enqueue(encoder.encode(text));
      if (done) controller.close();
    },
  });
}
