import { describe, expect, it } from "vitest";
import { examplePrefix } from "./id-prefix";

describe("the key browser's prefix example", () => {
  it("is the common prefix of the service's ids", () => {
    expect(examplePrefix(["order-1042", "order-1077", "order-1003"])).toBe("order-10");
    expect(examplePrefix(["inv_2026_01", "inv_2026_02"])).toBe("inv_2026_0");
  });

  it("is the first id's head when the ids share nothing, or there is one", () => {
    expect(examplePrefix(["order-1", "refund-2"])).toBe("order-");
    expect(examplePrefix(["a1b2c3d4"])).toBe("a1b");
    expect(examplePrefix(["msg:77:x"])).toBe("msg:");
  });

  it("looks at a few ids only, and never returns a whole id of many", () => {
    expect(examplePrefix(["k-1", "k-1", "k-1"])).toBe("k-");
    expect(examplePrefix(["x-1", "x-2", "x-3", "x-4", "x-5", "zzz"])).toBe("x-");
  });

  it("is nothing without ids, and at most 24 characters", () => {
    expect(examplePrefix([])).toBeNull();
    expect(examplePrefix(["a".repeat(40) + "1", "a".repeat(40) + "2"])).toBe("a".repeat(24));
  });
});
