import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { LatencySummary } from "./open-loop";
import type { PgbenchScript } from "./pgbench";
import { percentile } from "./report";

const run = promisify(execFile);

export interface RatedPgbench {
  tps: number;
  latency: LatencySummary;
}

/**
 * pgbench at a fixed rate (-R, Poisson schedule; no --latency-limit, so nothing is skipped), or
 * unthrottled without `rate`. Latencies come from the per-transaction log (-l), whose third
 * column under -R counts from the scheduled start: schedule lag included, as the generator's.
 */
export async function pgbenchAt(o: { database: string; scripts: PgbenchScript[]; clients: number; seconds: number; rate?: number }): Promise<RatedPgbench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "weir-pgbench-rate-"));
  try {
    const args = ["-h", "127.0.0.1", "-U", "postgres", "-n", "-M", "prepared", "-c", String(o.clients), "-j", "2", "-T", String(o.seconds)];
    if (o.rate) args.push("-R", String(o.rate));
    for (const script of o.scripts) {
      const file = path.join(dir, `${script.name}.sql`);
      writeFileSync(file, script.sql);
      args.push("-f", `${file}@${script.weight ?? 1}`);
    }
    args.push("-l", "--log-prefix", path.join(dir, "tx"), o.database);
    const { stdout, stderr } = await run("pgbench", args, { maxBuffer: 16 << 20, cwd: dir });
    const output = stdout + stderr;
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1] ?? NaN);
    if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${output}`);
    const micros: number[] = [];
    for (const name of readdirSync(dir).filter((f) => f.startsWith("tx"))) {
      for (const line of readFileSync(path.join(dir, name), "utf8").split("\n")) {
        const us = Number(line.split(" ")[2]);
        if (line && Number.isFinite(us)) micros.push(us);
      }
    }
    const ms = Float64Array.from(micros, (us) => us / 1000).sort();
    const at = (p: number) => percentile(ms, p);
    return { tps, latency: { count: ms.length, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: ms.length ? ms[ms.length - 1]! : Number.NaN } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
