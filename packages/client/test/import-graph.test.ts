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

const ROOT = path.resolve(import.meta.dirname, "../../..");
// Besides its own source, the package bundles the one-pass structural hash and the wire schemas' types.
const BUNDLED_FROM = ["packages/client/src/", "lib/dedup/canonical/", "lib/validation/"];

describe("the typed client as a package", () => {
  const graph = importGraph(path.resolve(import.meta.dirname, "../src/index.ts"));
  const files = [...graph.keys()].map((file) => path.relative(ROOT, file));

  // The bundler follows relative imports only: an "@/" alias would not resolve in the package.
  it("reaches no file through this repository's @/ alias", () => {
    const aliased = [...graph].flatMap(([file, specs]) => specs.filter((s) => s.startsWith("@/")).map((s) => `${path.relative(ROOT, file)} imports ${s}`));
    expect(graph.size).toBeGreaterThan(5);
    expect(aliased).toEqual([]);
  });

  it("bundles nothing of weir but its own source, the structural hash and the wire schemas", () => {
    expect(files.filter((file) => !BUNDLED_FROM.some((prefix) => file.startsWith(prefix)))).toEqual([]);
    expect(files).toContain("lib/dedup/canonical/structural-hash.ts");
  });

  it("imports no package but zod (for types) and node's built-ins", () => {
    const packages = new Set([...graph.values()].flat().filter((spec) => !spec.startsWith(".") && !spec.startsWith("node:")));
    expect([...packages]).toEqual(["zod"]);
  });
});
