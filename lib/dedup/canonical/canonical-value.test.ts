import { describe, expect, it } from "vitest";
import { canonicalizeJson } from "./canonical-json";
import { catchCanonicalError } from "./catch-error.fixture";
import { canonicalizeValue, structuralHash, structuralHashOfValue } from "./structural-hash";

describe("canonicalizeValue", () => {
  it("agrees with the text path", () => {
    const fromText = structuralHash('{"b":1,"a":[true,null,"x"]}');
    expect(fromText.hash).toBe(structuralHashOfValue({ a: [true, null, "x"], b: 1 }).hash);
    expect(canonicalizeValue({ a: [true, null, "x"], b: 1 })).toBe('{"a":[true,null,"x"],"b":1}');
  });

  it("writes numbers as their shortest round-trip text", () => {
    expect(canonicalizeValue([0.1, 1e21, 1e-7, -0, 1.5, 2 ** 53])).toBe("[0.1,1e+21,1e-7,0,1.5,9007199254740992]");
    expect(canonicalizeValue(1e21)).toBe(canonicalizeJson("1e+21"));
  });

  it("writes bigints as integer text", () => {
    expect(canonicalizeValue({ id: 9007199254740993n })).toBe(canonicalizeJson('{"id":9007199254740993}'));
  });

  it("encodes strings like the text path", () => {
    const s = 'é"\\\n\u0000😀\ud800\udc00x\ud800';
    expect(canonicalizeValue({ [s]: s })).toBe(canonicalizeJson(JSON.stringify({ [s]: s })));
  });

  it("keeps __proto__ as data", () => {
    const value = JSON.parse('{"__proto__":{"x":1}}') as unknown;
    expect(canonicalizeValue(value)).toBe('{"__proto__":{"x":1}}');
    expect(canonicalizeValue(Object.assign(Object.create(null) as object, { b: 2, a: 1 }))).toBe('{"a":1,"b":2}');
  });

  it.each([
    ["NaN", NaN],
    ["Infinity", { a: [Infinity] }],
    ["undefined", { a: undefined }],
    ["a function", [() => 1]],
    ["a symbol", Symbol("s")],
    ["a Date", { at: new Date(0) }],
    ["a Map", new Map()],
    ["a sparse array", [1, , 3]],
  ])("refuses %s", (_, value) => {
    expect(catchCanonicalError(() => canonicalizeValue(value)).code).toBe("invalid_json");
  });

  it("names the path of a refused value", () => {
    expect(catchCanonicalError(() => canonicalizeValue({ a: [1, { b: NaN }] })).path).toBe("/a/1/b");
  });

  it("limits depth, which also stops cycles", () => {
    const deep = JSON.parse("[".repeat(64) + "]".repeat(64)) as unknown;
    expect(canonicalizeValue(deep)).toBe("[".repeat(64) + "]".repeat(64));
    expect(catchCanonicalError(() => canonicalizeValue([deep])).code).toBe("too_deep");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(catchCanonicalError(() => canonicalizeValue(cycle)).code).toBe("too_deep");
  });
});
