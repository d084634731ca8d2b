import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { cpuSecondsOf } from "./processes";

/** The postmaster's pid, from the first line of its data directory's postmaster.pid. */
function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
}

/** The pids whose parent is `parent`, from /proc/<pid>/stat (field 4). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) children.push(Number(entry));
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return children;
}

/**
 * CPU seconds one PostgreSQL server (a whole node: every backend, background worker and the
 * postmaster) has used so far: the postmaster's own time and what it collected from children that
 * exited, plus each live child's. The sum only grows, so the difference of two readings is what the
 * node spent between them, connections that came and went included; which is what a capacity model
 * needs of a coordinator or a worker (its backends for the queries routed to it, its maintenance
 * daemon, the connections other nodes open to it).
 */
export function nodeCpuSeconds(dataDir: string): number {
  const postmaster = postmasterPid(dataDir);
  let total = cpuSecondsOf(postmaster, true);
  for (const child of childrenOf(postmaster)) {
    const cpu = cpuSecondsOf(child);
    if (Number.isFinite(cpu)) total += cpu;
  }
  return total;
}
