import { createHash, randomBytes } from "node:crypto";

/** 256 random bits; the "weir_" prefix makes leaked tokens easy to find with secret scanners. */
export function generateTokenSecret(): string {
  return `weir_${randomBytes(32).toString("base64url")}`;
}

export function newTokenId(): string {
  return `tok_${randomBytes(9).toString("base64url")}`;
}

/** SHA-256 suffices: a token has 256 bits of entropy, so a slow hash would add nothing but latency. */
export function hashTokenSecret(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export const TOKEN_PREFIX_LENGTH = 12;

/** The token from an Authorization header ("Bearer <token>"), or null when the header is malformed. */
export function bearerTokenOf(header: string): string | null {
  const match = /^Bearer\s+(weir_[A-Za-z0-9_-]{20,100})\s*$/i.exec(header);
  return match ? match[1]! : null;
}
