import { describe, expect, it } from "vitest";
import { canonicalizeAt, canonicalizeJson, hashJsonAt } from "./canonical-json";
import { catchCanonicalError } from "./catch-error.fixture";
import { hashCanonical, structuralHash } from "./structural-hash";

const canon = (text: string) => canonicalizeJson(text);
const hash = (text: string) => structuralHash(text).hash;

describe("numbers keep their source text", () => {
  it("tells integers beyond 2^53 apart", () => {
    expect(hash("9007199254740993")).not.toBe(hash("9007199254740992"));
    expect(hash('{"id":9007199254740993}')).not.toBe(hash('{"id":9007199254740992}'));
    expect(canon("[9007199254740993]")).toBe("[9007199254740993]");
  });

  it("tells long decimals from their nearest double", () => {
    expect(hash("0.1000000000000000055511151231257827")).not.toBe(hash("0.1"));
    expect(canon("0.1000000000000000055511151231257827")).toBe("0.1000000000000000055511151231257827");
  });

  it("tells 1, 1.0 and \"1\" apart", () => {
    const forms = ["1", "1.0", '"1"', "1e0", "1E0", "10e-1"].map(hash);
    expect(new Set(forms).size).toBe(forms.length);
  });

  it("keeps the sign of zero and the exponent as written", () => {
    expect(canon("[-0,0,-0.0,1e+2,1E-2]")).toBe("[-0,0,-0.0,1e+2,1E-2]");
  });
});

describe("objects", () => {
  it("sort members and drop insignificant whitespace", () => {
    expect(canon(' { "b" : 1 ,\n\t"a" : [ true , null , "x" ] }\r\n')).toBe('{"a":[true,null,"x"],"b":1}');
    expect(hash('{"b":1,"a":2}')).toBe(hash('{"a":2,"b":1}'));
  });

  it("sort large objects too", () => {
    const keys = Array.from({ length: 100 }, (_, i) => `k${(i * 37) % 100}`);
    const text = "{" + keys.map((k) => `"${k}":"${k}"`).join(",") + "}";
    const sorted = [...keys].sort();
    expect(canon(text)).toBe("{" + sorted.map((k) => `"${k}":"${k}"`).join(",") + "}");
  });

  it("keep array order significant", () => {
    expect(hash("[1,2]")).not.toBe(hash("[2,1]"));
  });

  it("treat __proto__ as an ordinary field", () => {
    expect(canon('{"__proto__":{"x":1}}')).toBe('{"__proto__":{"x":1}}');
    expect(hash('{"__proto__":{"x":1}}')).not.toBe(hash("{}"));
    expect(hash('{"__proto__":{"x":1}}')).not.toBe(hash('{"x":1}'));
  });

  it("refuse a duplicated field, naming where", () => {
    const top = catchCanonicalError(() => canon('{"a":1,"b":2,"a":3}'));
    expect(top).toMatchObject({ code: "duplicate_field", position: 13, path: "/a" });
    expect(top.message).toContain("position 13");
    expect(catchCanonicalError(() => canon('{"x":[{"k":1},{"k":1,"k":1}]}'))).toMatchObject({
      code: "duplicate_field",
      path: "/x/1/k",
    });
    expect(catchCanonicalError(() => canon('{"__proto__":1,"__proto__":2}')).code).toBe("duplicate_field");
    expect(catchCanonicalError(() => canon('{"__proto__":{"a":1,"a":1}}'))).toMatchObject({ path: "/__proto__/a" });
  });

  it("refuse duplicates spelt differently", () => {
    expect(catchCanonicalError(() => canon('{"A":1,"\\u0041":2}')).code).toBe("duplicate_field");
    const wide = "{" + Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(",") + ',"k7":0}';
    expect(catchCanonicalError(() => canon(wide))).toMatchObject({ code: "duplicate_field", path: "/k7" });
  });
});

describe("strings compare code point by code point", () => {
  it("decode escapes", () => {
    expect(hash('"\\u00e9"')).toBe(hash('"é"'));
    expect(hash('"\\u00E9"')).toBe(hash('"é"'));
    expect(hash('"\\/"')).toBe(hash('"/"'));
    expect(hash('"\\u0041"')).toBe(hash('"A"'));
    expect(hash('{"\\u0061":1}')).toBe(hash('{"a":1}'));
    expect(canon('"\\"\\\\\\b\\f\\n\\r\\t\\u0000"')).toBe('"\\"\\\\\\u0008\\u000c\\u000a\\u000d\\u0009\\u0000"');
  });

  it("join surrogate pairs however they are written", () => {
    const forms = ['"😀"', '"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '"\\ud83d\ude00"', '"\ud83d\\ude00"'];
    expect(new Set(forms.map(hash)).size).toBe(1);
    expect(canon(forms[1]!)).toBe('"😀"');
  });

  it("keep lone surrogates distinct from each other and from U+FFFD", () => {
    const forms = ['"\\ud800"', '"\\udc00"', '"\\ufffd"', '"\\udc00\\ud800"', '"\\ud800\\ud800"'];
    expect(new Set(forms.map(hash)).size).toBe(forms.length);
    expect(canon('"\\ud800x"')).toBe('"\\ud800x"');
    expect(hash('"\ud800"')).toBe(hash('"\\ud800"'));
    expect(canon('"\\uDC00\\uD800"')).toBe('"\\udc00\\ud800"');
  });
});

describe("depth limit", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("accepts 64 levels and refuses 65", () => {
    expect(canon(nested(64))).toBe(nested(64));
    const error = catchCanonicalError(() => canon(nested(65)));
    expect(error.code).toBe("too_deep");
    expect(error.position).toBe(64);
    expect(catchCanonicalError(() => canon('{"a":'.repeat(65) + "1" + "}".repeat(65))).code).toBe("too_deep");
  });

  it("takes the limit from the caller", () => {
    expect(canonicalizeJson(nested(3), { maxDepth: 3 })).toBe(nested(3));
    expect(catchCanonicalError(() => canonicalizeJson('{"a":[[1]]}', { maxDepth: 2 }))).toMatchObject({
      code: "too_deep",
      path: "/a/0",
    });
  });
});

describe("strict grammar", () => {
  const invalid: [string, number][] = [
    ["", 0],
    ["   ", 3],
    ["[1,]", 3],
    ['{"a":1,}', 7],
    ["[1 2]", 3],
    ['{"a" 1}', 5],
    ["{a:1}", 1],
    ["{'a':1}", 1],
    ["[01]", 1],
    ["-", 1],
    ["1.", 2],
    [".5", 0],
    ["1e", 2],
    ["+1", 0],
    ["NaN", 0],
    ["Infinity", 0],
    ["[tru]", 1],
    ["nulls", 4],
    ['"abc', 4],
    ['"a\nb"', 2],
    ['"\\x"', 1],
    ['"\\u12g4"', 1],
    ["[1]/* c */", 3],
    ["// c\n1", 0],
    ["1 2", 2],
    ["\u00a01", 0],
    ["\f1", 0],
    ["{}}", 2],
  ];
  it.each(invalid)("refuses %j at position %i", (text, position) => {
    const error = catchCanonicalError(() => canon(text));
    expect(error.code).toBe("invalid_json");
    expect(error.position).toBe(position);
    expect(error.message).toContain(`position ${position}`);
  });

  it("names the path of the offending place", () => {
    expect(catchCanonicalError(() => canon('{"a":{"b":[1,2,x]}}'))).toMatchObject({ path: "/a/b/2", position: 15 });
    expect(catchCanonicalError(() => canon('{"a/b":{"m~n":tru}}')).path).toBe("/a~1b/m~0n");
  });
});

describe("sub-ranges and hashing", () => {
  it("canonicalizes a value in the middle of a text and reports its end", () => {
    const text = '{"serviceId":"a","payload": {"b":1,"a":2} ,"x":1}';
    const start = text.indexOf(":", text.indexOf("payload")) + 1;
    expect(canonicalizeAt(text, start)).toEqual({ canonical: '{"a":2,"b":1}', end: text.indexOf("} ,") + 1 });
    expect(hashJsonAt(text, start).hash).toBe(hash('{"a":2,"b":1}'));
    expect(canonicalizeAt(text, start + 2)).toEqual({ canonical: '"b"', end: start + 5 });
    expect(catchCanonicalError(() => canonicalizeAt(text, start + 3)).position).toBe(start + 3);
  });

  it("hashes the canonical form's UTF-8 bytes", () => {
    const text = '{"ü":"€","a":[1.50,"😀"]}';
    const { hash: digest, canonical } = structuralHash(text, { keepCanonical: true });
    expect(canonical).toBe('{"a":[1.50,"😀"],"ü":"€"}');
    expect(digest).toBe(hashCanonical(canonical!));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
