import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Reads a V8 CPU profile (node --cpu-prof) of weir's server and says where the
 * time went: self time per function and per group (a weir module, node's own
 * internals, pg, zod, ...), counted only inside the given load windows, so that
 * start-up, warm-up and the other contenders' rounds (idle here) stay out.
 * The server runs bundled (dist/server.mjs); esbuild marks where each source
 * file begins with a `// lib/…/file.ts` line, which maps a line back to its module.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span of CLOCK_MONOTONIC in microseconds, the clock V8 stamps its samples with. */
export interface Window {
  fromUs: number;
  toUs: number;
}

export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The newest .cpuprofile in `dir` written after `sinceMs` (wall clock), or undefined. */
export function newestProfile(dir: string, sinceMs: number): string | undefined {
  let best: { file: string; mtime: number } | undefined;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".cpuprofile")) continue;
    const file = path.join(dir, name);
    const mtime = statSync(file).mtimeMs;
    if (mtime >= sinceMs && (!best || mtime > best.mtime)) best = { file, mtime };
  }
  return best?.file;
}

/** Source module of each line of an esbuild bundle: line index -> "lib/http/body.ts". */
function bundleModules(bundle: string): (line: number) => string {
  const starts: { line: number; module: string }[] = [];
  readFileSync(bundle, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.startsWith("// ") && text.endsWith(".ts") && !text.includes(" ", 3)) starts.push({ line: i, module: text.slice(3) });
    });
  return (line) => {
    let found = "dist/server.mjs";
    for (const start of starts) {
      if (start.line > line) break;
      found = start.module;
    }
    return found;
  };
}

/** The module a frame belongs to, and the group it is summed under. */
function classify(frame: CallFrame, moduleAt: (line: number) => string): { module: string; group: string } {
  const { url, functionName } = frame;
  if (!url) {
    // (garbage collector), (program): V8's own; anything else without a url is native code:
    // a V8 builtin (JSON.parse, microtasks) or one of node's C++ bindings (a socket's writev, hashing).
    const vm = functionName.startsWith("(") ? functionName : "native";
    return { module: vm, group: functionName === "(garbage collector)" ? "GC" : "V8 / native" };
  }
  if (url.startsWith("node:")) return { module: url, group: "node internals" };
  const packageAt = url.lastIndexOf("/node_modules/");
  if (packageAt >= 0) {
    const rest = url.slice(packageAt + 14).split("/");
    const name = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return { module: name, group: `package ${name}` };
  }
  if (url.endsWith("/dist/server.mjs")) {
    const source = moduleAt(frame.lineNumber);
    return { module: source, group: `weir ${source.split("/").slice(0, 2).join("/")}` };
  }
  return { module: url.replace(/^file:\/\//, ""), group: "other" };
}

export interface ProfileSummary {
  /** Sampled CPU inside the windows, in microseconds (idle excluded). */
  busyUs: number;
  groups: { name: string; us: number }[];
  functions: { name: string; module: string; us: number }[];
}

export function summarizeProfile(file: string, bundle: string, windows: Window[]): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const moduleAt = bundleModules(bundle);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (windows.some((w) => t >= w.fromUs && t <= w.toUs)) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const groups = new Map<string, number>();
  const functions = new Map<string, { name: string; module: string; us: number }>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    busyUs += us;
    const { module, group } = classify(frame, moduleAt);
    groups.set(group, (groups.get(group) ?? 0) + us);
    const name = frame.functionName || "(anonymous)";
    const key = `${name}@${module}:${frame.lineNumber}`;
    const entry = functions.get(key) ?? { name, module, us: 0 };
    entry.us += us;
    functions.set(key, entry);
  }
  const sorted = <T extends { us: number }>(items: Iterable<T>) => [...items].sort((a, b) => b.us - a.us);
  return { busyUs, groups: sorted([...groups].map(([name, us]) => ({ name, us }))), functions: sorted(functions.values()) };
}

/**
 * The summary as text: shares of the sampled time, and µs per check. V8 samples on a wall-clock
 * interval, so a sample also counts time the process was preempted (a write that wakes the
 * reader, PostgreSQL or the load generator, on a shared core): with `measuredUs`, the server's
 * CPU per check from /proc over the same windows, each share is read as that much of it instead.
 */
export function formatSummary(summary: ProfileSummary, checks: number, top = 25, measuredUs?: number): string {
  const perCheck = (us: number) => {
    if (checks <= 0) return "";
    const value = measuredUs === undefined ? us / checks : (us / summary.busyUs) * measuredUs;
    return `${value.toFixed(1).padStart(6)} µs/check`;
  };
  const share = (us: number) => `${((100 * us) / summary.busyUs).toFixed(1).padStart(5)} %`;
  const lines = [
    `sampled in the load windows: ${(summary.busyUs / 1e6).toFixed(2)} s over ${checks} checks = ${(summary.busyUs / Math.max(1, checks)).toFixed(1)} µs/check` +
      (measuredUs === undefined ? "" : `; measured server CPU ${measuredUs.toFixed(1)} µs/check, shared out below by the samples`),
    "by group (self time):",
  ];
  for (const g of summary.groups.slice(0, 20)) lines.push(`  ${share(g.us)} ${perCheck(g.us)}  ${g.name}`);
  lines.push(`top ${top} functions (self time):`);
  for (const f of summary.functions.slice(0, top)) lines.push(`  ${share(f.us)} ${perCheck(f.us)}  ${f.name}  (${f.module})`);
  return lines.join("\n");
}

/** Prints the summary of the newest profile in `dir` written since `sinceMs`, over the weir load windows. */
export function printProfileSummary(dir: string, sinceMs: number, windows: Window[], checks: number, top = 25, measuredUs?: number): void {
  const file = newestProfile(dir, sinceMs);
  if (!file) return void console.log("no CPU profile was written");
  console.log(`\nprofile ${path.basename(file)} (weir, load windows only; the profiler's own cost included):`);
  console.log(formatSummary(summarizeProfile(file, path.join(path.dirname(dir), "dist/server.mjs"), windows), checks, top, measuredUs));
}
