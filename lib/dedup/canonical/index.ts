export { CanonicalJsonError, type CanonicalJsonErrorCode } from "./errors";
export { compileIgnoredPaths, compilePathFilter, validateJsonPointer, type HashSettings, type PathFilter } from "./path-filter";
export {
  canonicalizeAt,
  canonicalizeJson,
  hashJsonAt,
  type CanonicalHashResult,
  type CanonicalOptions,
  type CanonicalResult,
  type HashJsonOptions,
} from "./canonical-json";
export { canonicalizeValue, type CanonicalValueOptions } from "./canonical-value";
export { parseJsonValueAt, type JsonPlainValue, type PlainValueResult } from "./plain-json";
export {
  parseEnvelope,
  parseEnvelopeAt,
  rehashMember,
  type EnvelopeFields,
  type EnvelopeOptions,
  type HashedMember,
  type ParsedEnvelope,
} from "./envelope";
export {
  hashCanonical,
  structuralHash,
  structuralHashOfValue,
  type StructuralHash,
  type StructuralHashOptions,
} from "./structural-hash";
