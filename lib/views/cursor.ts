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
