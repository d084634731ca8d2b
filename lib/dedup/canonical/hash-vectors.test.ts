import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { compilePathFilter } from "./path-filter";
import { structuralHash } from "./structural-hash";
import vectorFile from "./hash-vectors.json";

describe("the structural hash vectors", () => {
  it.each(vectorFile.vectors)("$name", ({ settings, payload, canonical, hash }) => {
    expect(structuralHash(payload, { filter: compilePathFilter(settings), keepCanonical: true })).toEqual({ hash, canonical });
    // The digest is plain SHA-256 of the canonical form's UTF-8 bytes: any language can check it.
    expect(createHash("sha256").update(canonical, "utf8").digest("hex")).toBe(hash);
  });
});
