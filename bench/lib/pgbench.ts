import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PgbenchScript {
  name: string;
  sql: string;
  weight?: number;
}

export interface PgbenchOptions {
  database: string;
  scripts: PgbenchScript[];
  clients: number;
  threads?: number;
  seconds?: number;
  transactions?: number;
  /** Log every transaction's latency to compute p99 (pgbench itself prints averages only). */
  latencies?: boolean;
}

export interface PgbenchResult {
  tps: number;
  transactions: number;
  avgMs: number;
  p99Ms: number;
  output: string;
}

/**
 * Runs pgbench against a bench database: prepared statements (-M prepared),
 * no vacuum (-n), scripts weighted as given. p99 comes from the per-transaction
 * log (-l), whose third column is the latency in microseconds.
 */
export async function pgbench(o: PgbenchOptions): Promise<PgbenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "weir-pgbench-"));
  try {
    const args = ["-h", "127.0.0.1", "-U", "postgres", "-n", "-M", "prepared", "-c", String(o.clients), "-j", String(o.threads ?? Math.min(o.clients, 2))];
    if (o.transactions) args.push("-t", String(o.transactions));
    else args.push("-T", String(o.seconds ?? 10));
    for (const script of o.scripts) {
      const file = path.join(dir, `${script.name}.sql`);
      writeFileSync(file, script.sql);
      args.push("-f", `${file}@${script.weight ?? 1}`);
    }
    if (o.latencies) args.push("-l", "--log-prefix", path.join(dir, "tx"));
    args.push(o.database);
    const { stdout, stderr } = await run("pgbench", args, { maxBuffer: 16 << 20, cwd: dir }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") throw new Error("pgbench is not installed: it ships with the PostgreSQL server package (apt-get install postgresql-15)");
      throw err;
    });
    const output = stdout + stderr;
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1] ?? NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? NaN);
    const avgMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1] ?? NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
    if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${output}`);
    if (failed > 0) throw new Error(`pgbench had ${failed} failed transactions:\n${output}`);
    let p99Ms = Number.NaN;
    if (o.latencies) {
      const latencies: number[] = [];
      for (const name of readdirSync(dir).filter((f) => f.startsWith("tx"))) {
        for (const line of readFileSync(path.join(dir, name), "utf8").split("\n")) {
          const us = Number(line.split(" ")[2]);
          if (Number.isFinite(us) && line) latencies.push(us);
        }
      }
      latencies.sort((a, b) => a - b);
      p99Ms = latencies.length ? latencies[Math.ceil(latencies.length * 0.99) - 1]! / 1000 : Number.NaN;
    }
    return { tps, transactions, avgMs, p99Ms, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bare single-statement check (upsert-CAS): the update fires only when the
 * hash differs. A duplicate still locks the row, which writes WAL and waits for
 * the commit flush; that is the cost weir's snapshot read avoids.
 */
export function upsertCasSql(serviceId: string, key: string, hash: string): string {
  return `insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
values ('${serviceId}', 'm-' || ${key}, ${hash}, 1, now(), now())
on conflict (service_id, message_id) do update
  set hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
  where s.hash is distinct from excluded.hash
returning version;
`;
}

/**
 * pgbench scripts for the 50 % duplicate mix of CheckMix over `keys` keys. `bench_hash` computes
 * SHA-256 of the payload text inside PostgreSQL (work weir does in Node); `bench_hash_cheap` costs
 * nothing, so that run is the upsert-CAS statement's own limit (its service must be seeded with it).
 */
export function checkMixScripts(serviceId: string, keys: number, hashFn: "bench_hash" | "bench_hash_cheap" = "bench_hash"): PgbenchScript[] {
  const half = Math.floor(keys / 2);
  return [
    {
      name: "duplicate",
      sql: `\\set k random(0, ${half - 1})\n${upsertCasSql(serviceId, ":k::bigint", `${hashFn}(:k::bigint, 0)`)}`,
    },
    {
      name: "change",
      sql: `\\set k random(${half}, ${keys - 1})\n\\set v random(1, 1000000000000000)\n${upsertCasSql(serviceId, ":k::bigint", `${hashFn}(:k::bigint, :v::bigint)`)}`,
    },
  ];
}
