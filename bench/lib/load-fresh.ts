import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { LoadResult } from "./load";

const run = promisify(execFile);

export interface FreshLoadSpec {
  url: string;
  token?: string;
  serviceId: string;
  /** The check mix (workload.ts): keys and a seed; give each run its own seed so its changes are new. */
  keys: number;
  seed: number;
  connections: number;
  seconds: number;
}

/** A LoadResult plus the CPU the load generator spent on the run alone. */
export type FreshLoadResult = LoadResult & { loaderCpuSeconds: number };

/**
 * Drives POST /api/v1/check with the check mix from a fresh node process per
 * run. Measured on this machine: autocannon in the bench's own long-lived
 * process spent about 30 % more CPU per request after it had driven another
 * contender, and reported a p99 2-3 ms higher for the next one. A process per
 * run gives every contender the same clean load generator.
 */
export async function driveCheckMixFresh(spec: FreshLoadSpec): Promise<FreshLoadResult> {
  const child = path.join(import.meta.dirname, "load-child.ts");
  const { stdout } = await run(process.execPath, ["--import", "tsx", child, JSON.stringify(spec)], {
    maxBuffer: 1 << 20,
    timeout: (spec.seconds + 60) * 1000,
  });
  return JSON.parse(stdout) as FreshLoadResult;
}
