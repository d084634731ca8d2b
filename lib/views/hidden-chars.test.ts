import { describe, expect, it } from "vitest";
import { describeHidden, hasHidden, splitHidden } from "./hidden-chars";

describe("hidden characters", () => {
  it("cuts zero-width and bidi characters out as escapes, keeps ordinary text and spaces", () => {
    expect(splitHidden("m\u200B1")).toEqual(["m", { code: 0x200b, label: "\\u200B" }, "1"]);
    expect(splitHidden("\u202Eabc")).toEqual([{ code: 0x202e, label: "\\u202E" }, "abc"]);
    expect(splitHidden("order 42")).toEqual(["order 42"]);
    expect(splitHidden("")).toEqual([""]);
    expect(splitHidden("a\u00A0b\uFEFF")).toEqual(["a", { code: 0xa0, label: "\\u00A0" }, "b", { code: 0xfeff, label: "\\uFEFF" }]);
    expect(splitHidden("é-1 ✓ 日本")).toEqual(["é-1 ✓ 日本"]);
  });

  it("names what it found and stays linear on long input", () => {
    expect(describeHidden(0x2066)).toBe("Invisible character U+2066 (left-to-right isolate)");
    expect(hasHidden("m1")).toBe(false);
    expect(hasHidden("m\u2060")).toBe(true);
    const long = "a\u200B".repeat(50_000);
    const started = performance.now();
    expect(splitHidden(long)).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
