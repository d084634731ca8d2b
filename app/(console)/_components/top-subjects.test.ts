import { describe, expect, it } from "vitest";
import type { SubjectSummary } from "@/lib/views/overview";
import { topSubjects } from "./top-subjects";

const subject = (id: string, checks: number, duplicates: number): SubjectSummary => ({
  id,
  label: id,
  checks,
  new: checks - duplicates,
  changed: 0,
  duplicates,
  errors: 0,
  lateRedeliveries: 0,
  previous: { checks: 0, duplicates: 0 },
});

describe("topSubjects", () => {
  const rows = [subject("a", 100, 1), subject("b", 10, 5), subject("c", 1000, 5), subject("d", 50, 0), subject("e", 50, 0)];

  it("ranks by duplicates, then checks, then id, and keeps the first `limit`", () => {
    expect(topSubjects(rows, 3, null).map((r) => r.id)).toEqual(["c", "b", "a"]);
    expect(topSubjects(rows, 10, null).map((r) => r.id)).toEqual(["c", "b", "a", "d", "e"]);
  });

  it("adds the charted subject after them when it is not among them, once", () => {
    expect(topSubjects(rows, 2, "e").map((r) => r.id)).toEqual(["c", "b", "e"]);
    expect(topSubjects(rows, 2, "b").map((r) => r.id)).toEqual(["c", "b"]);
    expect(topSubjects(rows, 2, "gone").map((r) => r.id)).toEqual(["c", "b"]);
  });
});
