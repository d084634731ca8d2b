import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderReference } from "./reference";
import { VARIABLES } from "./variables";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["app", "bench", "bin", "cli", "components", "db", "e2e", "examples", "lib", "packages", "scripts", "test", ".ci"];
const SKIPPED_DIRS = /(^|\/)(node_modules|\.next|dist|test-results|playwright-report)(\/|$)/;
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|js|cjs)$|^run$/;
/** The test suite's own switches: read only by test code, never by a node (see docs/configuration.md). */
const TEST_ONLY = /^WEIR_(TEST|E2E|BENCH|FAULTS|FUZZ)_/;
const VARIABLE_NAME = /\bWEIR_[A-Z0-9_]+/g;
const ENV_READ = /process\.env(?:\.|\[")(WEIR_[A-Z0-9_]+|DATABASE_URL|PORT|HOST|NATS_URL)\b/g;

function sourceFiles(): string[] {
  const rootFiles = readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isFile() && /\.(ts|mjs)$/.test(e.name)).map((e) => e.name);
  const nested = SOURCE_DIRS.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && SOURCE_FILE.test(e.name))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
      .filter((file) => !SKIPPED_DIRS.test(file)),
  );
  return [...rootFiles, ...nested];
}

const files = sourceFiles().map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }));

describe("the configuration reference", () => {
  it("is what `npm run docs:config` writes (docs/configuration.md is generated, never edited)", () => {
    const committed = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
    expect(committed, "run `npm run docs:config` and commit docs/configuration.md").toBe(renderReference());
  });

  it("declares every WEIR_* variable the code names, so none is left out of the reference", () => {
    const undeclared = new Set<string>();
    for (const { file, text } of files) {
      for (const [name] of text.matchAll(VARIABLE_NAME)) {
        // A trailing underscore is a prefix being built (e.g. a stream name), not a variable.
        if (name.endsWith("_") || TEST_ONLY.test(name) || name in VARIABLES) continue;
        undeclared.add(`${name} (${file})`);
      }
    }
    expect([...undeclared], "declare them in lib/config/variables.ts").toEqual([]);
  });

  it("leaves the reading to lib/config: no other module of weir reads one of its variables from process.env", () => {
    const readers: string[] = [];
    for (const { file, text } of files) {
      if (!/^(app|cli|components|db|lib)\/|^(server|proxy)\.ts$/.test(file) || file.startsWith("lib/config/") || /\.(test|fixture)\.tsx?$/.test(file)) continue;
      for (const [, name] of text.matchAll(ENV_READ)) readers.push(`${file} reads ${name}`);
    }
    expect(readers, 'use setting("NAME") from @/lib/config').toEqual([]);
  });

  it("declares nothing the code never reads", () => {
    const outside = files.filter(({ file }) => !file.startsWith("lib/config/")).map(({ text }) => text);
    const unread = Object.keys(VARIABLES).filter((name) => !outside.some((text) => text.includes(name)));
    expect(unread).toEqual([]);
  });
});
