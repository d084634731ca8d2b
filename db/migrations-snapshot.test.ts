import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const MIGRATIONS = path.resolve("db/migrations");
const sqlFiles = (dir: string) => readdirSync(dir).filter((file) => file.endsWith(".sql")).sort();
let scratch: string | undefined;

afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the migrations' schema snapshot", () => {
  // drizzle-kit writes a migration from the difference between db/schema and the newest snapshot
  // in db/migrations/meta. Migrations written by hand leave no snapshot: without a fresh one,
  // `npm run db:generate` writes again every column added since, and that migration fails to apply.
  it("matches db/schema, so that db:generate writes only what a change adds", () => {
    scratch = mkdtempSync(path.join(tmpdir(), "weir-migrations-"));
    cpSync(MIGRATIONS, scratch, { recursive: true });
    const drizzleKit = path.resolve("node_modules/.bin/drizzle-kit");
    // drizzle-kit reads `--out` relative to the working directory, even an absolute one.
    const printed = execFileSync(drizzleKit, ["generate", "--dialect", "postgresql", "--schema", "./db/schema/index.ts", "--out", path.relative(process.cwd(), scratch)], {
      encoding: "utf8",
    });
    expect(printed).toContain("No schema changes");
    expect(sqlFiles(scratch), printed).toEqual(sqlFiles(MIGRATIONS));
  }, 60_000);
});
