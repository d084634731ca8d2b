/**
 * Runs every benchmark scenario, each in its own process, then prints one
 * summary of all their tables. `npm run bench -- --quick` is what CI runs to
 * keep the scripts working: small data, short runs. Benchmarks never fail on
 * timing; this exits non-zero only when a script itself broke.
 * Run: npm run bench [-- --quick] [-- --only check-single,memory]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { quick } from "./lib/cli";
import { fmt, machineLine, printTable, ratioText, type Row } from "./lib/report";

const SCENARIOS = [
  "check-single",
  "latency-open-loop",
  "tail-sources",
  "check-batch",
  "claim-single",
  "client-coalescing",
  "structural-hash",
  "wal-per-duplicate",
  "steady-start",
  "journal",
  "console-scale",
  "bulk-reset",
  "window-cleanup",
  "memory",
];

const onlyAt = process.argv.indexOf("--only");
/** Too long for the quick run CI makes, and what they show needs rounds a quick run does not have. */
const FULL_RUN_ONLY = new Set(["tail-sources"]);

const selected = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? "").split(",") : SCENARIOS.filter((name) => !quick || !FULL_RUN_ONLY.has(name));
const passOn = process.argv.slice(2).filter((arg, i, all) => arg !== "--only" && all[i - 1] !== "--only");

const dir = mkdtempSync(path.join(os.tmpdir(), "weir-bench-"));
const summary = path.join(dir, "summary.jsonl");
const failed: string[] = [];
const started = Date.now();
console.log(`weir benchmarks${quick ? " (quick)" : ""}: ${machineLine()}`);
for (const name of selected) {
  if (!SCENARIOS.includes(name)) throw new Error(`unknown scenario ${name}; one of ${SCENARIOS.join(", ")}`);
  console.log(`\n### ${name}`);
  const t = Date.now();
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, `${name}.ts`), ...passOn], {
    stdio: "inherit",
    env: { ...process.env, WEIR_BENCH_SUMMARY: summary },
  });
  console.log(`### ${name}: ${run.status === 0 ? "done" : "FAILED"} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  if (run.status !== 0) failed.push(name);
}

let rows: string[][] = [];
try {
  rows = readFileSync(summary, "utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => {
      const { scenario, rows: scenarioRows } = JSON.parse(line) as { scenario: string; rows: Row[] };
      return scenarioRows
        .filter((r) => r.target !== "info" && !r.target.startsWith("info"))
        .map((r) => [
          `${scenario.split(" ")[0]} ${r.metric}${r.unit ? ` (${r.unit})` : ""}`,
          fmt(r.ours),
          r.baseline === undefined ? "-" : `${fmt(r.baseline)}${r.baselineName ? ` ${r.baselineName}` : ""}`,
          typeof r.ratio === "number" ? ratioText(r.ratio) : (r.ratio ?? "-"),
          r.target,
          r.met === undefined ? "" : r.met ? "yes" : "NO",
        ]);
    });
} catch {
  // no script reported anything
}
rmSync(dir, { recursive: true, force: true });
console.log(`\n== summary (${((Date.now() - started) / 1000).toFixed(0)} s)`);
printTable(["metric", "ours", "baseline", "ratio", "target", "met"], rows);
if (failed.length > 0) {
  console.error(`\nscripts that broke (not timing): ${failed.join(", ")}`);
  process.exit(1);
}
