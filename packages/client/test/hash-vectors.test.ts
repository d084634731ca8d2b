import { describe, expect, it } from "vitest";
import { compileNormalise } from "../../../lib/dedup/canonical/path-filter";
import { structuralHashOfValue } from "../../../lib/dedup/canonical/structural-hash";
import vectorFile from "../../../lib/dedup/canonical/hash-vectors.json";

// The client hashes JS values (idempotency keys from business fields). Vectors whose numbers
// survive JSON.parse and that ignore no path are hashed from the parsed value, as the client does.
const valueSafe = vectorFile.vectors.filter(
  (v) => v.settings.ignoredPaths.length === 0 && v.settings.includedPaths.length === 0 && JSON.stringify(JSON.parse(v.payload)) === v.canonical.replace(/\\u000a/g, "\\n"),
);

describe("the client's hasher gives the structural hash vectors", () => {
  it("has vectors to check", () => expect(valueSafe.length).toBeGreaterThanOrEqual(4));

  it.each(valueSafe)("$name", ({ settings, payload, hash }) => {
    expect(structuralHashOfValue(JSON.parse(payload), { normalise: compileNormalise(settings.normalise) }).hash).toBe(hash);
  });

  it("normalises numbers from JS values as the server does from text", () => {
    const [one, oneDotZero] = ["numbers by value: 1", "numbers by value: 1.0"].map((name) => vectorFile.vectors.find((v) => v.name === name)!);
    const normalise = compileNormalise(["numbers"]);
    expect(structuralHashOfValue({ a: 1, b: -0, c: 1e2, d: 12.5 }, { normalise }).hash).toBe(one!.hash);
    expect(oneDotZero!.hash).toBe(one!.hash);
  });
});
