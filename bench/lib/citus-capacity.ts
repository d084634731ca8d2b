import os from "node:os";
import type { CitusCluster } from "@/test/citus/citus-cluster";
import type { BenchDatabase } from "./db";
import { nodeCpuSeconds } from "./node-cpu";
import { DatabaseCpu } from "./processes";

/** Reads the CPU each part of the store spent between start and stop, in seconds, by part. */
export interface CpuMeter {
  start(): Promise<void>;
  stop(): Promise<Record<string, number>>;
}

/** One PostgreSQL shared with other databases: the backends serving the bench's database. */
export function databaseMeter(database: BenchDatabase): CpuMeter {
  let cpu: DatabaseCpu | undefined;
  return {
    start: async () => {
      cpu = new DatabaseCpu(database.pool, database.name);
      await cpu.start();
    },
    stop: async () => ({ postgres: await cpu!.stop() }),
  };
}

/** A private Citus cluster: each node's whole server (every process of its postmaster), by role. */
export function clusterMeter(cluster: CitusCluster): CpuMeter {
  const parts = () => [
    ["coordinator", cluster.coordinator.dataDir] as const,
    ...cluster.workers.map((worker, i) => [`worker ${i + 1}`, worker.dataDir] as const),
  ];
  let before = new Map<string, number>();
  return {
    start: async () => {
      before = new Map(parts().map(([name, dir]) => [name, nodeCpuSeconds(dir)]));
    },
    stop: async () => Object.fromEntries(parts().map(([name, dir]) => [name, nodeCpuSeconds(dir) - (before.get(name) ?? 0)])),
  };
}

/** What a load cost: its rate here and its CPU per check by part (µs). */
export interface LoadCost {
  perSecond: number;
  cpuUs?: Record<string, number>;
}

const WORKER_COUNTS = [1, 2, 4, 8];

/**
 * The capacity model (docs/citus.md#capacity): checks/s a cluster of W workers could answer with
 * every node on a machine of its own with this machine's core count, from the CPU one check cost
 * each node here. A node saturates when its cores are busy, so its ceiling is cores / CPU per check;
 * the workers share the keys evenly (hash distribution), so their ceiling grows with W; the
 * coordinator's, while checks pass through it, does not. weir's nodes are stateless and scale on
 * their own; the model says how many a rate needs. It assumes CPU per check does not change with
 * W (router calls touch one worker whatever W is; a batch leaves one call per worker, so batches do
 * cost a little more per check as W grows) and that the network is not the limit.
 */
export function capacityModel(name: string, measured: Record<"single" | "batch", LoadCost>, plain: Record<"single" | "batch", LoadCost>, cores = os.availableParallelism()): string[] {
  const lines = [`\ncapacity model: ${name}; every node on a machine of its own with ${cores} cores like this one`];
  for (const load of ["single", "batch"] as const) {
    const cpu = measured[load].cpuUs ?? {};
    const coordinator = cpu.coordinator ?? 0;
    const workers = Object.entries(cpu)
      .filter(([part]) => part.startsWith("worker"))
      .reduce((sum, [, us]) => sum + us, 0);
    const plainUs = plain[load].cpuUs?.postgres ?? Number.NaN;
    const perSecond = (us: number, machines = 1) => (us > 0 ? (machines * cores * 1e6) / us : Number.POSITIVE_INFINITY);
    lines.push(
      `  ${load === "single" ? "single checks" : "batches"}: CPU µs per check: coordinator ${coordinator.toFixed(0)}, all workers ${workers.toFixed(0)}, ` +
        `weir ${(cpu.weir ?? 0).toFixed(0)}; one PostgreSQL ${plainUs.toFixed(0)} (ceiling ${Math.round(perSecond(plainUs))} checks/s)`,
    );
    for (const w of WORKER_COUNTS) {
      // Under 1 % of the workers' cost, the coordinator only ran its own upkeep: not on the path.
      const coordinatorCeiling = coordinator < workers / 100 ? Number.POSITIVE_INFINITY : perSecond(coordinator);
      const workerCeiling = perSecond(workers, w);
      const rate = Math.min(coordinatorCeiling, workerCeiling);
      const first = coordinatorCeiling < workerCeiling ? "the coordinator" : "the workers";
      const weirNodes = Math.ceil((rate * (cpu.weir ?? 0)) / (cores * 1e6));
      lines.push(
        `    ${w} worker${w === 1 ? " " : "s"}: ${Math.round(rate)} checks/s (${(rate / perSecond(plainUs)).toFixed(2)}x one PostgreSQL); ` +
          `${first} saturate${first === "the coordinator" ? "s" : ""} first (coordinator ${coordinatorCeiling === Infinity ? "not on the path" : Math.round(coordinatorCeiling)}, workers ${Math.round(workerCeiling)}); ` +
          `weir nodes needed ${weirNodes}`,
      );
    }
  }
  return lines;
}
