import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalizeJson } from "./canonical-json";
import { parseEnvelope } from "./envelope";
import { CanonicalJsonError } from "./errors";
import {
  narrowAlphabet,
  numberText,
  replaceNode,
  serialize,
  treeArbitrary,
  treeEquals,
  twin,
  wideAlphabet,
} from "./exact-tree.fixture";
import { parseJsonValueAt } from "./plain-json";
import { canonicalizeValue, hashCanonical, structuralHash } from "./structural-hash";

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

describe("structural hash properties", () => {
  it("ignores member order and whitespace", () => {
    fc.assert(
      fc.property(treeArbitrary(wideAlphabet), seed, seed, (tree, seedA, seedB) => {
        const a = structuralHash(serialize(tree, seedA), { keepCanonical: true });
        const b = structuralHash(serialize(tree, seedB), { keepCanonical: true });
        expect(a.canonical).toBe(b.canonical);
        expect(a.hash).toBe(b.hash);
        expect(a.hash).toBe(hashCanonical(a.canonical!));
      }),
      { numRuns: 400 },
    );
  });

  for (const [name, alphabet] of [["narrow", narrowAlphabet], ["wide", wideAlphabet]] as const) {
    it(`gives equal forms exactly to equal trees (${name} alphabet)`, () => {
      const tree = treeArbitrary(alphabet);
      fc.assert(
        fc.property(tree, tree, seed, seed, (a, b, seedA, seedB) => {
          const same = canonicalizeJson(serialize(a, seedA)) === canonicalizeJson(serialize(b, seedB));
          expect(same).toBe(treeEquals(a, b));
        }),
        { numRuns: 1000 },
      );
    });
  }

  it("tells a tree from any near copy of it", () => {
    const edit = fc.tuple(fc.nat(), fc.nat(), treeArbitrary({ ...narrowAlphabet, maxDepth: 1 }), fc.boolean());
    const numbers = fc.oneof(numberText, narrowAlphabet.numbers);
    fc.assert(
      fc.property(treeArbitrary({ ...wideAlphabet, numbers }), edit, seed, (tree, [index, variant, other, useTwin], seedA) => {
        const near = replaceNode(tree, index, (node) => (useTwin ? twin(node, variant) : other));
        const same = canonicalizeJson(serialize(tree, seedA)) === canonicalizeJson(serialize(near, seedA + 1));
        expect(same).toBe(treeEquals(tree, near));
      }),
      { numRuns: 3000 },
    );
  });

  it("produces canonical text that is JSON and canonical under itself", () => {
    fc.assert(
      fc.property(treeArbitrary(wideAlphabet), seed, (tree, seedA) => {
        const canonical = canonicalizeJson(serialize(tree, seedA));
        expect(canonicalizeJson(canonical)).toBe(canonical);
        expect(canonical.isWellFormed()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with canonicalizeValue on values whose numbers round-trip", () => {
    const value = fc.jsonValue({ maxDepth: 5, stringUnit: "binary" });
    fc.assert(
      fc.property(value, fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        expect(canonicalizeJson(text)).toBe(canonicalizeValue(v));
      }),
      { numRuns: 500 },
    );
  });

  it("accepts exactly the texts JSON.parse accepts, barring duplicates and depth", () => {
    const token = fc.constantFrom("{", "}", "[", "]", ",", ":", '"a"', '"\\u00e9"', '"\\x"', "1", "-0", "01", "1.", ".5", "1e5", "true", "nul", " ", "\n", "\u00a0", "/*", "NaN");
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (tokens) => {
        const text = tokens.join("");
        let native: unknown = null;
        try {
          JSON.parse(text);
        } catch (error) {
          native = error;
        }
        let ours: unknown = null;
        try {
          canonicalizeJson(text);
        } catch (error) {
          ours = error;
        }
        if (ours instanceof CanonicalJsonError && ours.code === "duplicate_field") expect(native).toBeNull();
        else expect(ours === null).toBe(native === null);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads envelopes like JSON.parse and hashes their payload like structuralHash", () => {
    const value = fc.jsonValue({ maxDepth: 4, stringUnit: "binary" });
    fc.assert(
      fc.property(value, value, fc.boolean(), (fields, payload, pretty) => {
        const text = JSON.stringify(fields, null, pretty ? 1 : undefined);
        expect(parseJsonValueAt(text, 0).value).toEqual(JSON.parse(text));
        const body = JSON.stringify({ messageId: "m", payload, other: fields }, null, pretty ? 1 : undefined);
        const envelope = parseEnvelope(body, { hashedField: "payload" });
        expect(envelope.fields.other).toEqual(JSON.parse(text));
        expect(envelope.hashed!.raw).toBe(JSON.stringify(payload, null, pretty ? 1 : undefined).replace(/\n/g, "\n "));
        expect(envelope.hashed!.hash).toBe(structuralHash(envelope.hashed!.raw).hash);
      }),
      { numRuns: 300 },
    );
  });
});
