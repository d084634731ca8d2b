import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type pg from "pg";
import { sleep } from "./cli";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Served {
  url: string;
  pid: number;
  /** Resident set size of the serving process, from /proc/<pid>/status. */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** VmRSS of a process in bytes (Linux), or NaN when it cannot be read. */
export function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts an entry point in ONE node process (TypeScript through node --import tsx,
 * not the tsx wrapper, so the pid is the process that serves; a built .mjs as is),
 * waits until `readyPath` answers, and returns a handle that stops it.
 */
export async function serve(
  entry: string,
  env: Record<string, string>,
  options: { readyPath?: string; label?: string; timeoutMs?: number; nodeArgs?: string[]; cwd?: string } = {},
): Promise<Served> {
  const port = await freePort();
  const loader = entry.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, entry], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const label = options.label ?? path.basename(entry);
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exited: number | null = null;
  child.once("exit", (code) => (exited = code ?? -1));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (exited !== null) throw new Error(`${label} exited (${exited}) before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${label} was not ready in time:\n${output}`);
    }
    try {
      const res = await fetch(url + (options.readyPath ?? "/api/health"));
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return {
    url,
    pid: child.pid!,
    rssBytes: () => rssOf(child.pid!),
    async stop() {
      if (exited !== null) return;
      const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await done;
      clearTimeout(timer);
    },
  };
}

export const hasNextBuild = (root = ROOT) => existsSync(path.join(root, ".next", "BUILD_ID"));

/**
 * weir's real server as `npm start` runs it: server.ts bundled to dist/server.mjs
 * (rebuilt here, so never stale) in production mode. With a `next build` in .next
 * it serves the console too (one process, both doors); without one, or with
 * --api-only, it runs with WEIR_API_ONLY=1 and serves the machine API alone.
 */
export async function serveWeir(
  databaseUrl: string,
  options: { apiOnly?: boolean; env?: Record<string, string>; nodeArgs?: string[]; root?: string; label?: string } = {},
): Promise<Served & { mode: string }> {
  // `root`: another checkout of weir (with its node_modules), e.g. the commit before a change, served the same way.
  const root = options.root ?? ROOT;
  const apiOnly = options.apiOnly || !hasNextBuild(root);
  const bundled = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, encoding: "utf8" });
  if (bundled.status !== 0) throw new Error(`bundling server.ts failed:\n${bundled.stderr}`);
  const served = await serve(
    "dist/server.mjs",
    {
      DATABASE_URL: databaseUrl,
      WEIR_API_ONLY: apiOnly ? "1" : "0",
      WEIR_CLEANUP_INTERVAL_MS: "3600000",
      ...options.env,
    },
    // The heap cap `npm start` runs with (package.json): V8 then collects before garbage piles up to
    // a limit sized for this machine's 24 GiB, which is what kept peak RSS over 300 MB without it.
    { label: options.label ?? "weir server", cwd: root, nodeArgs: ["--max-old-space-size=512", ...(options.nodeArgs ?? [])] },
  );
  return { ...served, mode: apiOnly ? "API only (WEIR_API_ONLY=1)" : "console + API" };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number, withExitedChildren = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const children = withExitedChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return (Number(fields[11]) + Number(fields[12]) + children) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds used so far by every PostgreSQL server process on this machine. */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    // cutime/cstime: the postmaster collects the CPU of backends that have exited (pgbench's).
    const cpu = cpuSecondsOf(Number(entry), true);
    if (Number.isFinite(cpu)) total += cpu;
  }
  return total;
}

/**
 * CPU of the PostgreSQL backends serving one database, sampled every 200 ms so
 * that backends which exit during the run (pgbench's) still count up to their last sample.
 */
export class DatabaseCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly database: string,
  ) {}

  private started = false;

  private async sample(): Promise<void> {
    const { rows } = await this.pool.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [this.database]);
    for (const { pid } of rows) {
      const cpu = cpuSecondsOf(pid);
      if (!Number.isFinite(cpu)) continue;
      // A backend born during the run started from zero CPU.
      if (!this.first.has(pid)) this.first.set(pid, this.started ? 0 : cpu);
      this.last.set(pid, cpu);
    }
  }

  async start(): Promise<void> {
    await this.sample();
    this.started = true;
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 200);
  }

  /** CPU seconds used since start(). Backends that connected after start() count from zero. */
  async stop(): Promise<number> {
    clearInterval(this.timer);
    await this.sample();
    let total = 0;
    for (const [pid, last] of this.last) total += last - (this.first.get(pid) ?? last);
    return total;
  }
}

/** CPU seconds of this process's children that have exited and been waited for (pgbench), from /proc/self/stat. */
function exitedChildrenCpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

export interface CpuSplit<T> {
  result: T;
  /** CPU per unit of work in microseconds: the serving process, the database's backends, the load generator. */
  serverUs: number;
  postgresUs: number;
  loaderUs: number;
  /** Everything above together (a NaN server counts as 0): what one unit costs the machine. */
  totalUs: number;
}

/**
 * Where the CPU went while `run` ran: the given process, the database's
 * backends and the load generator (this process, or pgbench as an exited
 * child; a result that reports `loaderCpuSeconds` brings its generator's own
 * figure, without the generator process's start-up), per unit of work. Unlike throughput on a shared machine, CPU per unit
 * hardly moves when neighbours are busy, so its ratio is the steadier figure.
 */
export async function cpuSplit<T>(
  pid: number | undefined,
  database: { pool: pg.Pool; name: string },
  run: () => Promise<T>,
  units: (result: T) => number,
): Promise<CpuSplit<T>> {
  const server0 = pid ? cpuSecondsOf(pid) : 0;
  const pgCpu = new DatabaseCpu(database.pool, database.name);
  await pgCpu.start();
  const self0 = process.cpuUsage();
  const children0 = exitedChildrenCpuSeconds();
  const result = await run();
  const self = process.cpuUsage(self0);
  const children = exitedChildrenCpuSeconds() - children0;
  const pgSeconds = await pgCpu.stop();
  const n = Math.max(1, units(result));
  const serverUs = pid ? ((cpuSecondsOf(pid) - server0) / n) * 1e6 : Number.NaN;
  const postgresUs = (pgSeconds / n) * 1e6;
  const reported = (result as { loaderCpuSeconds?: unknown }).loaderCpuSeconds;
  const loaderSeconds = typeof reported === "number" ? reported : (self.user + self.system) / 1e6 + children;
  const loaderUs = (loaderSeconds / n) * 1e6;
  return { result, serverUs, postgresUs, loaderUs, totalUs: (Number.isNaN(serverUs) ? 0 : serverUs) + postgresUs + loaderUs };
}
