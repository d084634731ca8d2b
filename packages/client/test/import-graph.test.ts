import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Every file the client's entry reaches through relative imports, with the specifiers each one imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const specifiers = [...readFileSync(file, "utf8").matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"/g)].map((m) => m[1]!);
    graph.set(file, specifiers);
    for (const spec of specifiers.filter((s) => s.startsWith("."))) {
      const base = path.resolve(path.dirname(file), spec);
      const found = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((candidate) => existsSync(candidate));
      if (found) visit(found);
    }
  };
  visit(entry);
  return graph;
}

describe("the typed client as a package", () => {
  // Projects that install weir import lib/client as TypeScript source; they have no "@/" alias.
  it("reaches no file through this repository's @/ alias", () => {
    const graph = importGraph(path.resolve(import.meta.dirname, "../src/index.ts"));
    const aliased = [...graph].flatMap(([file, specs]) => specs.filter((s) => s.startsWith("@/")).map((s) => `${path.relative(process.cwd(), file)} imports ${s}`));
    expect(graph.size).toBeGreaterThan(5);
    expect(aliased).toEqual([]);
  });
});
