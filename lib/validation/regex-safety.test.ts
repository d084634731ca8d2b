import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createApiRoutes } from "@/lib/http/routes";
import { Router } from "@/lib/http/router";
import { jsonPointerSchema, serviceSettingsSchema } from "./services";
import { createUserSchema } from "./tokens";

/**
 * Every regular expression in weir's source that can see user input must run in
 * linear time. The source is scanned, so a new regex is attacked as soon as it is
 * written; a catastrophic one fails here instead of freezing the event loop.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["lib", "app", "cli", "db", "components", "server.ts", "proxy.ts"];
const ADVERSARIAL_CHARS = 10 * 1024;
const BUDGET_MS = 10;
/** Growing lengths: an exponential pattern fails at a short one instead of hanging the run. */
const LENGTHS = [8, 16, 24, 32, 64, 256, 1024, ADVERSARIAL_CHARS];
const BASE_ALPHABET = [..."aA0 \t\n\r/\\~.-_:@=+%Ze*,;\"'", "\u0000", "\u2028", "é", "\ud83d"];

function sourceFiles(entry: string, out: string[] = []): string[] {
  const children = readdirSafe(path.join(ROOT, entry));
  if (children) {
    for (const child of children) if (child.name !== "node_modules" && !child.name.startsWith(".")) sourceFiles(path.join(entry, child.name), out);
  } else if (/\.tsx?$/.test(entry) && !/\.(test|fixture)\.tsx?$/.test(entry) && !entry.includes("/tests/")) {
    out.push(entry);
  }
  return out;
}

function readdirSafe(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
}

interface FoundRegex {
  where: string;
  regex?: RegExp;
  dynamic?: true;
}

function findRegexes(): FoundRegex[] {
  const found: FoundRegex[] = [];
  for (const file of SCANNED.flatMap((entry) => sourceFiles(entry))) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      const where = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = (node as ts.RegularExpressionLiteral).text;
        const end = literal.lastIndexOf("/");
        found.push({ where, regex: new RegExp(literal.slice(1, end), literal.slice(end + 1)) });
      } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === "RegExp") {
        found.push({ where, dynamic: true });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Characters the pattern itself names (unescaped), plus a base set of awkward ones. */
function alphabetOf(regex: RegExp): { all: string[]; own: string[] } {
  const own = new Set<string>();
  const src = regex.source.replace(/\\([trn])/g, (_, c: string) => ({ t: "\t", r: "\r", n: "\n" })[c]!);
  for (const c of src) if (c !== "\\") own.add(c);
  return { all: [...new Set([...own, ...BASE_ALPHABET])], own: [...own] };
}

function attacks(regex: RegExp): Iterable<(length: number) => string> {
  const { all, own } = alphabetOf(regex);
  const out: ((length: number) => string)[] = [];
  for (const body of all) for (const tail of ["", "\u0000", "!", ...own]) out.push((n) => body.repeat(n) + tail);
  for (const a of own) for (const b of own) if (a !== b) for (const tail of ["\u0000", "!"]) out.push((n) => (a + b).repeat(n / 2) + tail);
  return out;
}

/** Best of three, so a garbage collection pause on a busy machine is not taken for backtracking. */
function timeMs(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    try {
      run();
    } catch {
      // Refusals (a 404 from the router, a zod error) are answers too; only the time matters.
    }
    best = Math.min(best, performance.now() - start);
    if (best < BUDGET_MS) break;
  }
  return best;
}

describe("regular expressions on user input run in linear time", () => {
  const found = findRegexes();

  it("finds the regexes it attacks, and only one built at run time (the API router)", () => {
    expect(found.filter((r) => r.regex).length).toBeGreaterThan(20);
    expect(found.filter((r) => r.dynamic).map((r) => r.where.split(":")[0])).toEqual(["lib/http/router.ts"]);
  });

  it(`answers every regex literal within ${BUDGET_MS} ms on ${ADVERSARIAL_CHARS} adversarial characters`, () => {
    const slow: string[] = [];
    for (const { where, regex } of found) {
      if (!regex) continue;
      for (const attack of attacks(regex)) {
        for (const length of LENGTHS) {
          const input = attack(length);
          const ms = timeMs(() => new RegExp(regex.source, regex.flags).test(input));
          if (ms >= BUDGET_MS) {
            slow.push(`${where} ${regex} took ${ms.toFixed(1)} ms on ${JSON.stringify(input.slice(0, 12))}... (${input.length} chars)`);
            break;
          }
        }
      }
    }
    expect(slow).toEqual([]);
  }, 120_000);

  it("matches API paths with the router's compiled patterns in linear time", () => {
    const router = new Router(createApiRoutes(async () => Promise.reject(new Error("no store needed"))));
    for (const pathname of [
      `/api/v1/services/${"a".repeat(ADVERSARIAL_CHARS)}/keys/x`,
      `/api/v1/${"a/".repeat(ADVERSARIAL_CHARS / 2)}`,
      `/api/v1/idempotency/${"%".repeat(ADVERSARIAL_CHARS)}`,
      "/".repeat(ADVERSARIAL_CHARS),
    ]) {
      expect(timeMs(() => router.match("GET", pathname)), pathname.slice(0, 30)).toBeLessThan(BUDGET_MS);
    }
  });

  it("validates JSON pointers in linear time, with a bound on their length", () => {
    // 28 slashes and a "~" once blocked the event loop for seconds.
    for (const pointer of ["/".repeat(28) + "~", "/".repeat(ADVERSARIAL_CHARS) + "~", "/a~".repeat(ADVERSARIAL_CHARS / 3), "/~0".repeat(ADVERSARIAL_CHARS / 3) + "~"]) {
      expect(timeMs(() => jsonPointerSchema.safeParse(pointer)), pointer.slice(0, 30)).toBeLessThan(BUDGET_MS);
      expect(jsonPointerSchema.safeParse(pointer).success).toBe(false);
    }
    expect(timeMs(() => serviceSettingsSchema.safeParse({ ignoredPaths: Array.from({ length: 100 }, () => "/".repeat(511) + "~") }))).toBeLessThan(BUDGET_MS * 5);
    for (const good of ["/meta/sentAt", "/a~0b/c~1d", "/", "//x", "/items/0"]) expect(jsonPointerSchema.safeParse(good).success, good).toBe(true);
    for (const bad of ["", "meta", "/a~2", "/a~", "/a\u0000b", "/" + "x".repeat(512)]) expect(jsonPointerSchema.safeParse(bad).success, bad).toBe(false);
  });

  it("checks email addresses (zod's own pattern) in linear time", () => {
    for (const email of ["a".repeat(ADVERSARIAL_CHARS) + "@", "a.".repeat(ADVERSARIAL_CHARS / 2) + "@x", `x@${"a.".repeat(ADVERSARIAL_CHARS / 2)}!`, `x@${"a-".repeat(ADVERSARIAL_CHARS / 2)}`]) {
      expect(timeMs(() => createUserSchema.safeParse({ email, password: "long enough password" })), email.slice(0, 20)).toBeLessThan(BUDGET_MS);
    }
  });
});
