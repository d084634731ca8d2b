import { describe, expect, it } from "vitest";
import { pageSlice } from "./page-slice";

const items = Array.from({ length: 60 }, (_, i) => i);

describe("pageSlice", () => {
  it("shows the page the URL names, and the first for a missing or unreadable number", () => {
    expect(pageSlice(items, "2", 25)).toEqual({ shown: items.slice(25, 50), pageNumber: 2, pages: 3, firstIndex: 25 });
    for (const raw of [undefined, "", "abc", "0", "-3", ["2", "3"]]) expect(pageSlice(items, raw, 25).pageNumber).toBe(1);
    expect(pageSlice(items, "2.9", 25).pageNumber).toBe(2);
  });

  it("shows the last page for a number past the end, and one empty page for an empty list", () => {
    expect(pageSlice(items, "99", 25)).toMatchObject({ shown: items.slice(50), pageNumber: 3 });
    expect(pageSlice([], "4", 25)).toEqual({ shown: [], pageNumber: 1, pages: 1, firstIndex: 0 });
  });
});
