import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import { beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

const BIN = path.resolve(import.meta.dirname, "../bin/weir.mjs");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `weir <args>` as an operator would, against the database at `databaseUrl`. */
export function runWeir(databaseUrl: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: os.tmpdir(),
      env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end(input ?? "");
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A test file's own database, with the CLI and a row count against it (`count` reads a column `n`). */
export function cliTestDatabase() {
  let store: TestDatabase | undefined;
  beforeAll(async () => {
    store = await createTestDatabase();
  });
  const current = () => store!;
  return {
    store: current,
    weir: (args: string[], env?: Record<string, string>, input?: string) => runWeir(current().url, args, env, input),
    count: async (query: SQL) => Number((await current().db.execute<{ n: number }>(query)).rows[0]!.n),
  };
}
