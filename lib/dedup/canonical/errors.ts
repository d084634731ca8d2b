export type CanonicalJsonErrorCode = "invalid_json" | "duplicate_field" | "too_deep" | "invalid_pointer";

export class CanonicalJsonError extends Error {
  readonly code: CanonicalJsonErrorCode;
  /** Offset into the parsed text (or pointer string), when the error has one. */
  readonly position: number | undefined;
  /** RFC 6901 pointer of the offending place, when known. */
  path: string | undefined;
  /** Reference tokens collected innermost-first while the error unwinds the parser. */
  segments: string[] = [];
  private readonly detail: string;

  constructor(code: CanonicalJsonErrorCode, detail: string, position?: number, path?: string) {
    super(formatMessage(detail, position, path));
    this.name = "CanonicalJsonError";
    this.code = code;
    this.detail = detail;
    this.position = position;
    this.path = path;
  }

  /** Prefixes `segments` (outermost first) to the path and rewrites the message. */
  resolvePath(prefix: readonly string[] = []): this {
    const tokens = prefix.concat(this.segments.slice().reverse());
    this.segments = [];
    if (tokens.length > 0 || this.path === undefined) {
      this.path = tokens.length === 0 ? "" : "/" + tokens.map(escapePointerToken).join("/");
    }
    this.message = formatMessage(this.detail, this.position, this.path);
    return this;
  }

  /** Places the path under `token`, for errors raised inside a member of an outer document. */
  prefixPath(token: string): this {
    this.path = "/" + escapePointerToken(token) + (this.path ?? "");
    this.message = formatMessage(this.detail, this.position, this.path);
    return this;
  }
}

export function escapePointerToken(token: string): string {
  if (token.indexOf("~") < 0 && token.indexOf("/") < 0) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function formatMessage(detail: string, position: number | undefined, path: string | undefined): string {
  let message = detail;
  if (position !== undefined) message += ` at position ${position}`;
  if (path !== undefined) message += path === "" ? " (at the document root)" : ` (at ${path})`;
  return message;
}
