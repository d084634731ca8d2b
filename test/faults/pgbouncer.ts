import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sleep } from "./fixtures";
import { freePort } from "./private-postgres";

export const PGBOUNCER = process.env.WEIR_PGBOUNCER_BIN ?? "/usr/sbin/pgbouncer";
export const hasPgBouncer = () => existsSync(PGBOUNCER);

/**
 * What the README asks of the database behind PgBouncer: the timeouts weir would send at
 * connect, set on its role instead (here postgres, in the one database the bouncer serves).
 */
export function timeoutsOnRole(database: string, role: string, statementTimeoutMs: number): string[] {
  return [
    `alter role "${role}" in database "${database}" set statement_timeout = '${statementTimeoutMs}ms'`,
    `alter role "${role}" in database "${database}" set idle_in_transaction_session_timeout = '10s'`,
  ];
}

/** A PgBouncer in front of a private cluster, pooling in `mode`, on a loopback port of its own. */
export class PrivatePgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(serverPort: number, database: string, mode: "transaction" | "session"): Promise<PrivatePgBouncer> {
    const dir = mkdtempSync(path.join(os.tmpdir(), "weir-pgbouncer-"));
    const port = await freePort();
    writeFileSync(path.join(dir, "users.txt"), '"postgres" ""\n');
    writeFileSync(
      path.join(dir, "pgbouncer.ini"),
      [
        "[databases]",
        `${database} = host=127.0.0.1 port=${serverPort} dbname=${database}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        `unix_socket_dir = ${dir}`,
        "auth_type = trust",
        `auth_file = ${path.join(dir, "users.txt")}`,
        `pool_mode = ${mode}`,
        "default_pool_size = 4",
        "max_client_conn = 200",
        // Nothing else: the README's settings. weir sends no startup parameter PgBouncer refuses
        // (WEIR_PG_SEND_TIMEOUTS=0); the role carries the timeouts (timeoutsOnRole).
        "",
      ].join("\n"),
    );
    // PgBouncer refuses to run as root.
    const asPostgres = process.getuid?.() === 0;
    if (asPostgres) {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
      for (const file of ["", "users.txt", "pgbouncer.ini"]) chownSync(path.join(dir, file), uid, gid);
    }
    const [cmd, ...args] = [...(asPostgres ? ["runuser", "-u", "postgres", "--"] : []), PGBOUNCER, path.join(dir, "pgbouncer.ini")];
    const child = spawn(cmd!, args, { stdio: "ignore" });
    const bouncer = new PrivatePgBouncer(child, dir, port);
    await sleep(500);
    return bouncer;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  stop(): void {
    this.child.kill("SIGTERM");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
