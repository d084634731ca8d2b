/**
 * Runs a bench script against a private PostgreSQL cluster with the stock settings a production
 * server starts from (initdb's postgresql.conf: autovacuum on, fsync on, 128 MB shared buffers),
 * instead of the machine's own server, whose settings may not be stock: a CI configuration with
 * autovacuum off never vacuums, so what a bench reports of dead tuples there says nothing about
 * weir. The cluster lives in a temp directory on a free port and is removed afterwards.
 * Run: npx tsx bench/on-stock-cluster.ts bench/steady-start.ts [its flags]
 */
import { spawn } from "node:child_process";
import { PrivatePostgres } from "../test/faults/private-postgres";
import { runMain } from "./lib/cli";

const STOCK = { fsync: "on", full_page_writes: "on", shared_buffers: "128MB", log_min_messages: "warning" };

async function main(): Promise<void> {
  const [script, ...args] = process.argv.slice(2);
  if (!script) throw new Error("usage: npx tsx bench/on-stock-cluster.ts <bench script> [its flags]");
  const cluster = await PrivatePostgres.create(STOCK);
  try {
    console.log(`on-stock-cluster: PostgreSQL with stock settings on port ${cluster.port} (autovacuum on)`);
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
        stdio: "inherit",
        env: { ...process.env, WEIR_BENCH_ADMIN_URL: cluster.url() },
      });
      child.once("error", reject);
      child.once("exit", (exit) => resolve(exit ?? 1));
    });
    if (code !== 0) throw new Error(`${script} exited with ${code}`);
  } finally {
    await cluster.destroy();
  }
}

runMain(main);
