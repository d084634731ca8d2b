import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { GeneratorResult, GeneratorSpec } from "./open-loop";

const run = promisify(execFile);

export interface OpenLoopRun {
  spec: GeneratorSpec;
  workload: { services: number; keysPerService: number };
}

/**
 * Runs the generator in a fresh node process, apart from the bench (which seeds, samples and
 * runs pgbench) and from the server it measures; a fresh process per run, as load-fresh.ts
 * explains, gives every contender the same clean generator.
 */
export async function driveFresh(spec: OpenLoopRun): Promise<GeneratorResult> {
  const child = path.join(import.meta.dirname, "open-loop-child.ts");
  const { stdout } = await run(process.execPath, ["--import", "tsx", child, JSON.stringify(spec)], {
    maxBuffer: 1 << 20,
    timeout: (spec.spec.seconds + spec.spec.warmupSeconds + 60) * 1000,
  });
  return JSON.parse(stdout) as GeneratorResult;
}

export function describeRun(r: GeneratorResult): string {
  const l = r.all;
  const shed = r.statuses["503"] ?? 0;
  return `${Math.round(r.achieved)}/s of ${r.offered ? Math.round(r.offered) : "closed loop"}: p50 ${l.p50.toFixed(2)}, p99 ${l.p99.toFixed(2)}, p99.9 ${l.p999.toFixed(2)}, max ${l.max.toFixed(1)} ms; ${shed} x 503, ${r.errors} errors; generator send lag p99 ${r.sendLag.p99.toFixed(1)} ms, CPU ${((r.loaderCpuSeconds / Math.max(1, r.sent)) * 1e6).toFixed(0)} us/request`;
}
