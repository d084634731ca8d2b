import { describe, expect, it } from "vitest";
import { circles, importGraph, sourceFiles } from "@/test/import-graph";

/**
 * No module imports itself through others, `import type` and `import()` included: a circle
 * makes load order matter (a value read before its module ran is undefined) and ties files
 * that should change apart. A type both sides need goes to a module of its own
 * (cli/option-types.ts, db/queries/console-reset-step-result.ts).
 */
describe("the import graph", () => {
  it("has no circles in lib/, db/, cli/, app/ and components/", () => {
    const graph = importGraph(sourceFiles(["lib", "db", "cli", "app", "components"]));
    expect(graph.size).toBeGreaterThan(400);
    expect(circles(graph).map((files) => files.join(" -> "))).toEqual([]);
  });

  it("follows `import type` and `import()` as well as plain imports", () => {
    const [imports] = importGraph(["cli/commands/groups.ts"]).values();
    expect(imports).toEqual(expect.arrayContaining(["cli/option-types.ts", "cli/actions/groups.ts", "cli/commands/options.ts"]));
  });

  it("finds every circle of a graph, a file importing itself included", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
  });
});
