import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "@/test/api-server";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

// The client as its users get it: built, packed with `npm pack`, installed from the tarball into a
// project outside the repository, and used from plain JavaScript (import and require) and TypeScript.

const run = promisify(execFile);
const PACKAGE = path.resolve(import.meta.dirname, "..");
const ROOT = path.resolve(PACKAGE, "../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
const OUTPUTS = ["index.mjs", "index.cjs", "index.d.mts", "index.d.cts"];
// What a consumer service downloads and loads: budgets with room for growth, not for a second dependency.
// 14.8 KiB gzipped once the hasher learnt exact decimal numbers and the client every admin route; 20 leaves room.
const BUDGET = { jsBytes: 64 * 1024, jsGzipBytes: 20 * 1024, typesBytes: 64 * 1024, tarballBytes: 64 * 1024 };

async function newestSource(): Promise<number> {
  const dirs = [path.join(PACKAGE, "src"), path.join(ROOT, "lib/validation"), path.join(ROOT, "lib/dedup/canonical")];
  const files = [path.join(PACKAGE, "package.json"), path.join(PACKAGE, "tsdown.config.mjs")];
  for (const dir of dirs) files.push(...(await readdir(dir)).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts")).map((name) => path.join(dir, name)));
  return Math.max(...(await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs))));
}

/** Builds dist/ unless it is newer than every file it is built from (npm install's `prepare` builds it too). */
async function ensureBuilt(): Promise<void> {
  const built = await Promise.all(OUTPUTS.map((name) => stat(path.join(PACKAGE, "dist", name)).then((s) => s.mtimeMs, () => 0)));
  if (Math.min(...built) > (await newestSource())) return;
  await run("npm", ["run", "--silent", "build"], { cwd: PACKAGE, maxBuffer: 1 << 24 });
}

let store: TestDatabase;
let api: TestApi;
let scratch: string;
let tarball: { path: string; size: number; files: string[] };

beforeAll(async () => {
  store = await createTestDatabase();
  api = await startTestApi(async () => store);
  await ensureBuilt();
  scratch = await mkdtemp(path.join(os.tmpdir(), "weir-client-"));
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch], { cwd: PACKAGE, maxBuffer: 1 << 24 });
  const [packed] = JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[];
  tarball = { path: path.join(scratch, packed!.filename), size: packed!.size, files: packed!.files.map((f) => f.path).sort() };
  const project = path.join(scratch, "consumer");
  await run("mkdir", ["-p", project]);
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
  // zod (the one dependency) from this repository's own copy, packed too: the install then needs no registry.
  const { stdout: zod } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch, path.join(ROOT, "node_modules/zod")], { maxBuffer: 1 << 24 });
  const zodTarball = path.join(scratch, (JSON.parse(zod) as { filename: string }[])[0]!.filename);
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", zodTarball, tarball.path], { cwd: project, maxBuffer: 1 << 24 });
}, 180_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  await store?.close();
});

/** Runs a file of the scratch project against the live test API; its stdout is one JSON line. */
async function runConsumer(file: string, serviceId: string): Promise<unknown> {
  const env = { ...process.env, WEIR_URL: api.url, WEIR_TOKEN: api.adminToken, SERVICE_ID: serviceId, NODE_OPTIONS: "" };
  const { stdout } = await run(process.execPath, [file], { cwd: path.join(scratch, "consumer"), env });
  return JSON.parse(stdout.trim());
}

const SCRIPT = (load: string) => `${load}
const client = createWeirClient({ baseUrl: process.env.WEIR_URL, token: process.env.WEIR_TOKEN });
const serviceId = process.env.SERVICE_ID;
async function main() {
  const first = await client.check({ serviceId, messageId: "order-1", payload: { total: "10.00" } });
  const together = await Promise.all([1, 2, 3].map((n) => client.check({ serviceId, messageId: "order-" + n, payload: { total: "10.00" } })));
  let refused;
  try { await client.check({ serviceId, messageId: "", payload: 1 }); } catch (err) { refused = err instanceof WeirApiError ? err.field : "not a WeirApiError"; }
  console.log(JSON.stringify({ first: first.decision, together: together.map((r) => r.decision), refused }));
}
main().catch((err) => { console.error(err); process.exit(1); });
`;

const TYPED = `import { createWeirClient, WeirApiError, type CheckResponse, type Decision } from "@weir/client";
declare const process: { env: Record<string, string | undefined>; exit(code: number): never };
const client = createWeirClient({ baseUrl: process.env.WEIR_URL!, token: process.env.WEIR_TOKEN, coalesce: { maxItems: 50 } });
async function main(): Promise<void> {
  const answer: CheckResponse = await client.check({ serviceId: process.env.SERVICE_ID!, messageId: "typed-1", payload: { n: 1 } });
  const decision: Decision = answer.decision;
  const version: number = answer.version;
  // @ts-expect-error a check needs a serviceId
  void client.check({ messageId: "x", payload: 1 }).catch(() => undefined);
  console.log(JSON.stringify({ decision, version, isError: new WeirApiError(400, "c", "m", undefined, {}, undefined) instanceof Error }));
}
main().catch((err: unknown) => { console.error(err); process.exit(1); });
`;

describe("@weir/client as its users install it", () => {
  it("packs only the built files, within the size budget, with zod as its one dependency", async () => {
    expect(tarball.files).toEqual(["README.md", ...OUTPUTS.map((name) => `dist/${name}`)].concat("package.json").sort());
    expect(tarball.size).toBeLessThan(BUDGET.tarballBytes);
    const manifest = JSON.parse(await readFile(path.join(PACKAGE, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(["zod"]);
    for (const name of ["index.mjs", "index.cjs"]) {
      const code = await readFile(path.join(PACKAGE, "dist", name));
      expect(code.length, name).toBeLessThan(BUDGET.jsBytes);
      expect(gzipSync(code).length, `${name} gzipped`).toBeLessThan(BUDGET.jsGzipBytes);
      // Node's built-ins only: no Next, React, pg, nor zod at run time.
      const imported = [...code.toString().matchAll(/(?:from\s+|require\()"([^"]+)"/g)].map((m) => m[1]!);
      expect(imported.filter((spec) => !spec.startsWith("node:")), name).toEqual([]);
    }
    for (const name of ["index.d.mts", "index.d.cts"]) expect((await stat(path.join(PACKAGE, "dist", name))).size, name).toBeLessThan(BUDGET.typesBytes);
  });

  it("checks against a live weir from plain JavaScript, with import and with require", async () => {
    const serviceId = await createService(store.db);
    const project = path.join(scratch, "consumer");
    await writeFile(path.join(project, "esm.mjs"), SCRIPT(`import { createWeirClient, WeirApiError } from "@weir/client";`));
    await writeFile(path.join(project, "cjs.cjs"), SCRIPT(`const { createWeirClient, WeirApiError } = require("@weir/client");`));
    expect(await runConsumer("esm.mjs", serviceId)).toEqual({ first: "new", together: ["duplicate", "new", "new"], refused: "messageId" });
    expect(await runConsumer("cjs.cjs", serviceId)).toEqual({ first: "duplicate", together: ["duplicate", "duplicate", "duplicate"], refused: "messageId" });
  }, 60_000);

  it("type-checks a TypeScript consumer against the installed declarations, and runs it as CommonJS and as ESM", async () => {
    const serviceId = await createService(store.db);
    const project = path.join(scratch, "consumer");
    await writeFile(path.join(project, "typed.ts"), TYPED);
    await writeFile(path.join(project, "typed.mts"), TYPED);
    const compilerOptions = { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], types: [], outDir: "out", skipLibCheck: true };
    await writeFile(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["typed.ts", "typed.mts"] }));
    await run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: project }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed against the installed package:\n${err.stdout}`);
    });
    expect(await runConsumer("out/typed.js", serviceId)).toEqual({ decision: "new", version: 1, isError: true });
    expect(await runConsumer("out/typed.mjs", serviceId)).toEqual({ decision: "duplicate", version: 1, isError: true });
  }, 60_000);
});
