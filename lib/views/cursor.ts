/** Keyset cursors travel in URLs as base64url JSON; a tampered one is ignored, never trusted. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

export function decodeCursor(value: string | undefined, arity: number): string[] | undefined {
  if (!value) return undefined;
  try {
    const parts: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parts) || parts.length !== arity || !parts.every((p) => typeof p === "string")) return undefined;
    return parts as string[];
  } catch {
    return undefined;
  }
}

/**
 * The cursors around one keyset page. `back`: the page was read backwards from a "previous" cursor,
 * so a next page exists (the one we came from) and a previous one when more rows were found before.
 * `forward`: read on from a "next" cursor, so a previous page exists.
 */
export function pageCursors<T>(
  page: readonly T[],
  { back, forward, hasMore }: { back: boolean; forward: boolean; hasMore: boolean },
  cursorOf: (row: T) => string,
): { nextCursor: string | null; prevCursor: string | null } {
  const first = page[0];
  const last = page.at(-1);
  return {
    nextCursor: (back || hasMore) && last !== undefined ? cursorOf(last) : null,
    prevCursor: (back ? hasMore : forward) && first !== undefined ? cursorOf(first) : null,
  };
}

/** A page of `pageSize` rows from a read of `pageSize + 1`, in display order: the extra row says whether more exist. */
export function keysetPage<T>(
  rows: readonly T[],
  pageSize: number,
  direction: { back: boolean; forward: boolean },
  cursorOf: (row: T) => string,
): { page: T[]; nextCursor: string | null; prevCursor: string | null } {
  // Read backwards, the extra row is the first one (rows come back in display order).
  const page = direction.back ? rows.slice(-pageSize) : rows.slice(0, pageSize);
  return { page, ...pageCursors(page, { ...direction, hasMore: rows.length > pageSize }, cursorOf) };
}
