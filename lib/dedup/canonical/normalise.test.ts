import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalizeJson } from "./canonical-json";
import { canonicalNumber } from "./canonical-number";
import { canonicalizeValue } from "./canonical-value";
import { catchCanonicalError } from "./catch-error.fixture";
import { numberText } from "./exact-tree.fixture";
import { compileNormalise, compilePathFilter, type HashSettings } from "./path-filter";
import { hashesNoMoreThan } from "./path-filter-cover";
import { structuralHash } from "./structural-hash";

const settings = (normalise: string[], ignoredPaths: string[] = [], includedPaths: string[] = []): HashSettings => ({ ignoredPaths, includedPaths, normalise });
const canon = (text: string, s: HashSettings) => canonicalizeJson(text, { filter: compilePathFilter(s) });
const hash = (text: string, s: HashSettings) => structuralHash(text, { filter: compilePathFilter(s) }).hash;
const NUMBERS = settings(["numbers"]);
const NULLS = settings(["nulls"]);
const EMPTIES = settings(["empty_containers"]);

describe("numbers by exact decimal value", () => {
  it("makes 1, 1.0, 1e0, 10E-1 and 0.1e1 one number, and no other", () => {
    const forms = ["1", "1.0", "1e0", "1E0", "10E-1", "0.1e1", "1.000e+0", "100e-2"].map((n) => hash(`{"a":${n}}`, NUMBERS));
    expect(new Set(forms).size).toBe(1);
    expect(hash('{"a":1}', NUMBERS)).not.toBe(hash('{"a":"1"}', NUMBERS));
    expect(hash('{"a":1}', NUMBERS)).not.toBe(hash('{"a":1.0000000000000001}', NUMBERS));
  });

  it("keeps big integers and long decimals exact (no float on the way)", () => {
    expect(hash("9007199254740993", NUMBERS)).not.toBe(hash("9007199254740992", NUMBERS));
    expect(canon("9007199254740993", NUMBERS)).toBe("9007199254740993");
    expect(canon("9007199254740993.000", NUMBERS)).toBe("9007199254740993");
    expect(canon("0.30000000000000001", NUMBERS)).toBe("0.30000000000000001");
    expect(canonicalNumber("123456789012345678901234567890")).toBe("123456789012345678901234567890");
  });

  it("writes one text per value", () => {
    const cases: [string, string][] = [
      ["-0", "0"], ["-0.0e5", "0"], ["0.000", "0"], ["12.50", "12.5"], ["-12.5e1", "-125"], ["1e21", "1000000000000000000000"],
      ["1e22", "1e22"], ["1.5e300", "1.5e300"], ["0.001", "0.001"], ["1e-7", "1e-7"], ["123e-9", "1.23e-7"],
      ["1e99999999999999999999", "1e99999999999999999999"], ["25e-99999999999999999999", "2.5e-99999999999999999998"],
      ["1e0000000000000000001", "10"], ["-7", "-7"],
    ];
    for (const [text, expected] of cases) expect(canonicalNumber(text), text).toBe(expected);
  });

  it("is what the value path writes for a JS number", () => {
    const numbers = compileNormalise(["numbers"]);
    expect(canonicalizeValue({ a: 1e21, b: -0, c: 0.5, d: 1e-7 }, { normalise: numbers })).toBe(canon('{"a":1e21,"b":-0.0,"c":5e-1,"d":0.0000001}', NUMBERS));
  });

  it("leaves numbers as sent without the option", () => {
    expect(canon("[1.0,1e0,-0]", settings([]))).toBe("[1.0,1e0,-0]");
  });
});

describe("null as absent", () => {
  it("leaves a null member out", () => {
    expect(hash('{"a":1,"b":null}', NULLS)).toBe(hash('{"a":1}', NULLS));
    expect(canon('{"b":null,"a":{"c":null,"d":2}}', NULLS)).toBe('{"a":{"d":2}}');
  });

  it("keeps null array elements (positions matter) and a null document", () => {
    expect(canon("[null,1]", NULLS)).toBe("[null,1]");
    expect(canon("null", NULLS)).toBe("null");
    expect(hash('{"a":[null]}', NULLS)).not.toBe(hash('{"a":[]}', NULLS));
  });

  it("still refuses a duplicated field, even one whose value is left out", () => {
    for (const text of ['{"a":null,"a":1}', '{"a":1,"a":null}', '{"b":1,"a":null,"c":2,"a":null}']) {
      expect(catchCanonicalError(() => canon(text, NULLS))?.code, text).toBe("duplicate_field");
    }
  });

  it("keeps null without the option", () => {
    expect(hash('{"a":1,"b":null}', settings([]))).not.toBe(hash('{"a":1}', settings([])));
  });
});

describe("empty containers removed", () => {
  it("removes a container an ignored path left empty", () => {
    const s = settings(["empty_containers"], ["/meta/sentAt"]);
    expect(canon('{"a":1,"meta":{"sentAt":"2026-01-01"}}', s)).toBe('{"a":1}');
    expect(hash('{"a":1,"meta":{"sentAt":"2026-01-01"}}', s)).toBe(hash('{"a":1}', s));
    expect(hash('{"a":1,"meta":{"sentAt":"x","by":"y"}}', s)).not.toBe(hash('{"a":1}', s));
  });

  it("removes containers left empty outside the included paths, all the way up", () => {
    const s = settings(["empty_containers"], [], ["/a/b/c", "/x"]);
    expect(canon('{"a":{"b":{"d":1}},"x":2}', s)).toBe('{"x":2}');
  });

  it("removes empty members as sent, keeps array elements and the document itself", () => {
    expect(canon('{"a":{},"b":[],"c":[{}],"d":{"e":[]}}', EMPTIES)).toBe('{"c":[{}]}');
    expect(canon("{}", EMPTIES)).toBe("{}");
    expect(canon('{"a":{"b":{}}}', EMPTIES)).toBe("{}");
  });

  it("with nulls: a container left holding only nulls goes too", () => {
    expect(canon('{"a":{"b":null},"c":1}', settings(["nulls", "empty_containers"]))).toBe('{"c":1}');
    expect(canon('{"a":{"b":null},"c":1}', NULLS)).toBe('{"a":{},"c":1}');
  });

  it("is what the value path writes", () => {
    const norm = compileNormalise(["nulls", "empty_containers"]);
    expect(canonicalizeValue({ a: { b: null }, c: [null, {}], d: [] }, { normalise: norm })).toBe(canon('{"a":{"b":null},"c":[null,{}],"d":[]}', settings(["nulls", "empty_containers"])));
  });
});

describe("normalisation settings", () => {
  it("refuse an unknown name", () => {
    expect(catchCanonicalError(() => compilePathFilter(settings(["floats"])))?.message).toMatch(/unknown normalisation "floats"/);
  });

  it("make a key's hash movable only to settings that normalise at least as much", () => {
    const none = compilePathFilter(settings([]));
    const numbers = compilePathFilter(NUMBERS);
    const all = compilePathFilter(settings(["numbers", "nulls", "empty_containers"]));
    expect(hashesNoMoreThan(numbers, none)).toBe(true);
    expect(hashesNoMoreThan(all, numbers)).toBe(true);
    expect(hashesNoMoreThan(none, numbers)).toBe(false);
    expect(hashesNoMoreThan(numbers, compilePathFilter(NULLS))).toBe(false);
  });
});

describe("the number fast path", () => {
  it("agrees with canonicalNumber on every shape of number", () => {
    const texts = ["0", "-0", "7", "-7", "10", "1000000000000000000000", "10000000000000000000000", "0.5", "-0.5", "0.50", "12.345", "0.000001", "0.0000001", "-0.0",
      "1e5", "1E-5", "1.5e0", "100.001", "0.0000010", "5.000001", "-10000000000000000000000", "-1000000000000000000000",
      "12300000000000000000000000", "100000000000000000000000000001", "-0.0000001", "0.0000005", "10.0", "1e400"];
    for (const text of texts) expect(canon(`[${text}]`, NUMBERS), text).toBe(`[${canonicalNumber(text)}]`);
  });

  it("agrees with canonicalNumber on random numbers, long runs of zeros included", () => {
    const zeros = fc.nat({ max: 30 }).map((n) => "0".repeat(n));
    const zeroHeavy = fc.tuple(fc.constantFrom("", "-"), fc.constantFrom("0", "1", "70", "0.", "5.", "0.000"), zeros, fc.constantFrom("", "1", "0"))
      .map(([sign, head, run, tail]) => sign + head + run + tail)
      .filter((text) => /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text));
    fc.assert(fc.property(fc.oneof(numberText, zeroHeavy), (text) => canon(`[${text}]`, NUMBERS) === `[${canonicalNumber(text)}]`), { numRuns: 2000 });
  });
});
