import { describe, expect, it } from "vitest";
import { CanonicalJsonError } from "@/lib/dedup/canonical/errors";
import { compilePathFilter } from "@/lib/dedup/canonical/path-filter";
import { parseExactJson, renderExactJson } from "./exact-json";
import { diffExact, diffPayloads, presentPaths } from "./json-diff";

describe("diffPayloads", () => {
  it("reports nothing for payloads that differ only in field order and whitespace", () => {
    expect(diffPayloads('{"a":1,"b":{"c":[1,2]}}', ' { "b" : { "c" : [ 1 , 2 ] } , "a" : 1 } ')).toEqual([]);
  });

  it("finds added, removed and changed fields at any depth, as JSON pointers", () => {
    const before = '{"id":7,"status":"open","customer":{"name":"Ada","tags":["a","b"]},"old":true}';
    const after = '{"id":7,"status":"paid","customer":{"name":"Ada","tags":["a","c","d"],"vip":false}}';
    expect(diffPayloads(before, after)).toEqual([
      { path: "/status", kind: "changed", before: '"open"', after: '"paid"', ignored: false },
      { path: "/customer/tags/1", kind: "changed", before: '"b"', after: '"c"', ignored: false },
      { path: "/customer/tags/2", kind: "added", after: '"d"', ignored: false },
      { path: "/customer/vip", kind: "added", after: "false", ignored: false },
      { path: "/old", kind: "removed", before: "true", ignored: false },
    ]);
  });

  it("compares numbers by their exact text, like the structural hash", () => {
    expect(diffPayloads('{"n":9007199254740993}', '{"n":9007199254740992}')).toEqual([
      { path: "/n", kind: "changed", before: "9007199254740993", after: "9007199254740992", ignored: false },
    ]);
    expect(diffPayloads('{"n":1}', '{"n":1.0}')).toHaveLength(1);
    expect(diffPayloads('{"n":1}', '{"n":"1"}')).toEqual([{ path: "/n", kind: "changed", before: "1", after: '"1"', ignored: false }]);
  });

  it("compares strings by value, whatever their escapes", () => {
    expect(diffPayloads('{"s":"\\u0041\\n"}', '{"s":"A\\n"}')).toEqual([]);
  });

  it("shows a type change as one change of the whole value", () => {
    expect(diffPayloads('{"x":{"a":1}}', '{"x":[1]}')).toEqual([{ path: "/x", kind: "changed", before: '{"a":1}', after: "[1]", ignored: false }]);
    expect(diffPayloads("[1]", '{"a":1}')).toEqual([{ path: "", kind: "changed", before: "[1]", after: '{"a":1}', ignored: false }]);
  });

  it("marks changes under ignored paths and escapes pointer tokens", () => {
    const entries = diffPayloads('{"meta":{"sentAt":"1","trace":{"id":1}},"a/b":1,"t~":1}', '{"meta":{"sentAt":"2","trace":{"id":2}},"a/b":2,"t~":2}', ["/meta/sentAt", "/meta/trace"]);
    expect(entries.map((e) => [e.path, e.ignored])).toEqual([
      ["/meta/sentAt", true],
      ["/meta/trace/id", true],
      ["/a~1b", false],
      ["/t~0", false],
    ]);
  });

  it("marks changes outside the included paths as not hashed", () => {
    const filter = compilePathFilter({ includedPaths: ["/order/total"], ignoredPaths: [] });
    const entries = diffExact(parseExactJson('{"order":{"total":1,"note":"a"},"at":1}'), parseExactJson('{"order":{"total":2,"note":"b"},"at":2}'), filter);
    expect(entries.map((e) => [e.path, e.ignored])).toEqual([
      ["/order/total", false],
      ["/order/note", true],
      ["/at", true],
    ]);
  });

  it("refuses what the hash refuses", () => {
    expect(() => diffPayloads('{"a":1,"a":2}', "{}")).toThrow(CanonicalJsonError);
    expect(() => diffPayloads("{", "{}")).toThrow(CanonicalJsonError);
    expect(() => diffPayloads("1 2", "1")).toThrow(CanonicalJsonError);
  });
});

describe("exact JSON", () => {
  it("renders numbers as written and strings re-escaped", () => {
    expect(renderExactJson(parseExactJson('{"n":1.50e+3,"s":"a\\"b","l":[null,true]}'))).toBe('{"n":1.50e+3,"s":"a\\"b","l":[null,true]}');
  });

  it("finds which ignored paths a payload contains", () => {
    const tree = parseExactJson('{"meta":{"sentAt":"x"},"items":[{"id":1}]}');
    expect(presentPaths(tree, ["/meta/sentAt", "/meta/other", "/items/0/id", "/items/1", "/nope"])).toEqual(["/meta/sentAt", "/items/0/id"]);
  });
});
