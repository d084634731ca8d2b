import { describe, expect, it } from "vitest";
import { canonicalizeJson } from "./canonical-json";
import { catchCanonicalError } from "./catch-error.fixture";
import { compileIgnoredPaths, compilePathFilter, validateJsonPointer, type HashSettings } from "./path-filter";
import { structuralHash } from "./structural-hash";

const canonWithout = (pointers: string[], text: string) =>
  canonicalizeJson(text, { filter: compileIgnoredPaths(pointers) });

describe("ignored paths", () => {
  it("drop a nested member before hashing", () => {
    const ignored = compileIgnoredPaths(["/meta/sentAt"]);
    const a = structuralHash('{"id":1,"meta":{"sentAt":"2024-01-01","source":"x"}}', { filter: ignored });
    const b = structuralHash('{"meta":{"source":"x","sentAt":"2030-12-31T00:00:00Z"},"id":1}', { filter: ignored });
    const c = structuralHash('{"id":1,"meta":{"source":"x"}}');
    expect(a.hash).toBe(b.hash);
    expect(a.hash).toBe(c.hash);
    expect(structuralHash('{"id":2,"meta":{"sentAt":"2024-01-01","source":"x"}}', { filter: ignored }).hash).not.toBe(a.hash);
  });

  it("keep a member of the same name elsewhere", () => {
    expect(canonWithout(["/meta/sentAt"], '{"sentAt":1,"meta":{"sentAt":2},"x":{"meta":{"sentAt":3}}}')).toBe(
      '{"meta":{},"sentAt":1,"x":{"meta":{"sentAt":3}}}',
    );
  });

  it("drop array elements by index", () => {
    expect(canonWithout(["/items/1"], '{"items":[10,20,30]}')).toBe('{"items":[10,30]}');
    expect(canonWithout(["/items/0/at"], '{"items":[{"at":1,"v":2},{"at":1,"v":2}]}')).toBe(
      '{"items":[{"v":2},{"at":1,"v":2}]}',
    );
    expect(canonWithout(["/0"], "[1,2]")).toBe("[2]");
    expect(canonWithout(["/01"], "[1,2]")).toBe("[1,2]");
  });

  it("unescape ~1 and ~0", () => {
    expect(canonWithout(["/a~1b"], '{"a/b":1,"a":{"b":2}}')).toBe('{"a":{"b":2}}');
    expect(canonWithout(["/m~0n"], '{"m~n":1,"m~0n":2}')).toBe('{"m~0n":2}');
    expect(canonWithout(["/~01"], '{"~1":1,"/":2}')).toBe('{"/":2}');
    expect(canonWithout(["/"], '{"":1,"a":2}')).toBe('{"a":2}');
  });

  it("match keys however they are escaped", () => {
    expect(canonWithout(["/sentAt"], '{"s\\u0065ntAt":1,"x":2}')).toBe('{"x":2}');
  });

  it("change nothing when the path is absent or runs into a scalar", () => {
    const text = '{"a":{"b":[1,{"c":2}]},"d":"e"}';
    expect(canonWithout(["/zz", "/a/b/5", "/d/x", "/a/b/1/c/d"], text)).toBe(canonicalizeJson(text));
  });

  it("still validate the ignored value", () => {
    expect(catchCanonicalError(() => canonWithout(["/skip"], '{"skip":[1,,2]}')).code).toBe("invalid_json");
    expect(catchCanonicalError(() => canonWithout(["/skip"], '{"skip":01}')).code).toBe("invalid_json");
    expect(catchCanonicalError(() => canonWithout(["/skip"], '{"skip":{"a":1,"a":2}}')).code).toBe("duplicate_field");
    expect(catchCanonicalError(() => canonWithout(["/skip"], '{"skip":1,"skip":1}'))).toMatchObject({
      code: "duplicate_field",
      path: "/skip",
    });
    expect(catchCanonicalError(() => canonWithout(["/skip"], '{"skip":' + "[".repeat(64) + "]".repeat(64) + "}")).code).toBe(
      "too_deep",
    );
  });

  it("ignore a whole subtree once an ancestor is ignored", () => {
    expect(canonWithout(["/a/b", "/a"], '{"a":{"b":1},"c":1}')).toBe('{"c":1}');
  });

  it("compile to null when there is nothing to ignore", () => {
    expect(compileIgnoredPaths([])).toBeNull();
  });
});

describe("JSON pointers", () => {
  it("decode reference tokens", () => {
    expect(validateJsonPointer("")).toEqual([]);
    expect(validateJsonPointer("/")).toEqual([""]);
    expect(validateJsonPointer("/a~1b/~0/0/")).toEqual(["a/b", "~", "0", ""]);
    expect(validateJsonPointer("/~01")).toEqual(["~1"]);
  });

  it.each(["a", "a/b", "/a~", "/a~2", "/~x", "#/a"])("refuse %j", (pointer) => {
    const error = catchCanonicalError(() => validateJsonPointer(pointer));
    expect(error.code).toBe("invalid_pointer");
    expect(catchCanonicalError(() => compileIgnoredPaths(["/ok", pointer])).code).toBe("invalid_pointer");
  });

  it("refuse to ignore the whole document", () => {
    expect(catchCanonicalError(() => compileIgnoredPaths([""])).code).toBe("invalid_pointer");
  });

  it("refuse values that are not pointers", () => {
    expect(catchCanonicalError(() => compileIgnoredPaths([42 as unknown as string])).code).toBe("invalid_pointer");
    expect(catchCanonicalError(() => compileIgnoredPaths("/a" as unknown as string[])).code).toBe("invalid_pointer");
  });
});

describe("included paths", () => {
  const canon = (settings: Partial<HashSettings>, text: string) =>
    canonicalizeJson(text, { filter: compilePathFilter({ ignoredPaths: [], includedPaths: [], ...settings }) });

  it("hash only the listed subtrees, keeping their place in the tree", () => {
    const settings = { includedPaths: ["/amount", "/customer/id"] };
    expect(canon(settings, '{"customer":{"name":"Ann","id":7},"amount":5,"sentAt":"t1"}')).toBe('{"amount":5,"customer":{"id":7}}');
    expect(canon(settings, '{"amount":5,"customer":{"id":7,"name":"Bo"},"traceId":"x"}')).toBe('{"amount":5,"customer":{"id":7}}');
    expect(canon(settings, '{"amount":6,"customer":{"id":7}}')).not.toBe(canon(settings, '{"amount":5,"customer":{"id":7}}'));
  });

  it("tell an absent included member from a null one", () => {
    const settings = { includedPaths: ["/a"] };
    expect(canon(settings, '{"b":1}')).toBe("{}");
    expect(canon(settings, '{"a":null,"b":1}')).toBe('{"a":null}');
  });

  it("apply ignored paths inside an included subtree, and nothing outside it", () => {
    const settings = { includedPaths: ["/customer"], ignoredPaths: ["/customer/updatedAt", "/other/x"] };
    expect(canon(settings, '{"customer":{"id":1,"updatedAt":"t"},"other":{"x":1,"y":2}}')).toBe('{"customer":{"id":1}}');
  });

  it("keep a whole subtree when a shorter path includes it", () => {
    const settings = { includedPaths: ["/a/b", "/a"] };
    expect(canon(settings, '{"a":{"b":1,"c":2},"d":3}')).toBe('{"a":{"b":1,"c":2}}');
  });

  it("pick array elements by index and keep a scalar found on the way", () => {
    const settings = { includedPaths: ["/items/0/sku"] };
    expect(canon(settings, '{"items":[{"sku":"A","qty":1},{"sku":"B"}]}')).toBe('{"items":[{"sku":"A"}]}');
    expect(canon(settings, '{"items":"none"}')).toBe('{"items":"none"}');
  });

  it("refuse to include the whole document, since an empty list already means that", () => {
    expect(catchCanonicalError(() => compilePathFilter({ ignoredPaths: [], includedPaths: [""] })).code).toBe("invalid_pointer");
  });

  it("are no filter at all when neither list has a path", () => {
    expect(compilePathFilter({ ignoredPaths: [], includedPaths: [] })).toBeNull();
  });
});
