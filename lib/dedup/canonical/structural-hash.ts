import { hashJson, type CanonicalOptions } from "./canonical-json";
import { canonicalizeValue, encodeValue, type CanonicalValueOptions } from "./canonical-value";
import { sha256Hex } from "./sha256";

export { canonicalizeValue };

export interface StructuralHashOptions extends CanonicalOptions {
  /** Also return the canonical form (to store it, or to explain a decision). */
  keepCanonical?: boolean;
}

export interface StructuralHash {
  /** SHA-256 of the canonical form's UTF-8 bytes, lowercase hex. */
  hash: string;
  canonical?: string;
}

/** SHA-256 hex of a canonical form; the same digest `structuralHash` computes. */
export function hashCanonical(canonical: string): string {
  return sha256Hex(canonical);
}

/** Hash of a whole JSON text; throws `CanonicalJsonError` for anything but strict JSON. */
export function structuralHash(text: string, options?: StructuralHashOptions): StructuralHash {
  const { hash, canonical } = hashJson(text, 0, options?.filter ?? null, options?.maxDepth, true, options?.keepCanonical === true);
  return canonical === undefined ? { hash } : { hash, canonical };
}

/** Hash of a JS value; equals `structuralHash` of its JSON text when its numbers round-trip. */
export function structuralHashOfValue(value: unknown, options?: CanonicalValueOptions): StructuralHash {
  return { hash: encodeValue(value, options, (sink) => sink.digest(0, sink.o)) };
}
