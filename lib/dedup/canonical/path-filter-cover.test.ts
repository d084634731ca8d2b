import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePathFilter, type HashSettings } from "./path-filter";
import { hashesNoMoreThan } from "./path-filter-cover";
import { structuralHash } from "./structural-hash";

const settings = (ignoredPaths: string[] = [], includedPaths: string[] = []): HashSettings => ({ ignoredPaths, includedPaths });
const narrows = (newer: HashSettings, older: HashSettings) => hashesNoMoreThan(compilePathFilter(newer), compilePathFilter(older));

describe("hashesNoMoreThan", () => {
  it.each([
    ["ignoring a path more", settings(["/meta"]), settings(), true],
    ["ignoring a path less", settings(), settings(["/meta"]), false],
    ["including a part of an included path", settings([], ["/a/b"]), settings([], ["/a"]), true],
    ["including more than an included path", settings([], ["/a"]), settings([], ["/a/b"]), false],
    ["including a path where all was hashed", settings([], ["/a"]), settings(), true],
    ["including what was ignored", settings([], ["/a"]), settings(["/a/b"]), false],
    ["including, less what was ignored", settings(["/a/b"], ["/a"]), settings(["/a/b"]), true],
    ["including another path", settings([], ["/b"]), settings([], ["/a"]), false],
    ["the same settings", settings(["/m"], ["/a", "/b"]), settings(["/m"], ["/b", "/a"]), true],
  ])("%s: %s", (_name, newer, older, expected) => {
    expect(narrows(newer, older)).toBe(expected);
  });

  // Sound: whenever it says yes, payloads equal under the older settings are equal under the newer.
  it("never says yes where two payloads equal under the older settings differ under the newer", () => {
    const segment = fc.constantFrom("a", "b", "c");
    const pointer = fc.array(segment, { minLength: 1, maxLength: 3 }).map((tokens) => `/${tokens.join("/")}`);
    const hashSettings = fc.record({
      ignoredPaths: fc.array(pointer, { maxLength: 2 }),
      includedPaths: fc.array(pointer, { maxLength: 2 }),
    });
    const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
      tree: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.integer({ min: 0, max: 2 }),
        fc.dictionary(segment, tie("tree"), { maxKeys: 3 }),
        fc.array(tie("tree"), { maxLength: 2 }),
      ),
    }));
    fc.assert(
      fc.property(hashSettings, hashSettings, tree, tree, (older, newer, p, q) => {
        const olderFilter = compilePathFilter(older);
        const newerFilter = compilePathFilter(newer);
        if (!hashesNoMoreThan(newerFilter, olderFilter)) return;
        const hash = (value: unknown, filter: typeof olderFilter) => structuralHash(JSON.stringify(value), { filter }).hash;
        if (hash(p, olderFilter) === hash(q, olderFilter)) expect(hash(p, newerFilter)).toBe(hash(q, newerFilter));
      }),
      { numRuns: 3000 },
    );
  });
});
