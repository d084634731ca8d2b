import { sleep } from "../fixtures";
import type { PrivatePostgres } from "../private-postgres";

export interface NemesisStats {
  backendsKilled: number;
  restartsFast: number;
  restartsImmediate: number;
  freezes: number;
  /** When each fault started and ended, ms since the epoch, for reports. */
  log: string[];
}

/**
 * Faults injected while a workload runs, Jepsen's "nemesis": every ~second it
 * kills one or two of weir's backends (pg_terminate_backend, often in the
 * middle of a statement or a commit); once it restarts the cluster with a fast
 * shutdown, once it freezes it (SIGSTOP) for a while, once it crashes it
 * (immediate shutdown: no checkpoint, crash recovery on start).
 */
export async function runNemesis(cluster: PrivatePostgres, database: string, durationMs: number): Promise<NemesisStats> {
  const stats: NemesisStats = { backendsKilled: 0, restartsFast: 0, restartsImmediate: 0, freezes: 0, log: [] };
  const started = Date.now();
  const at = (fraction: number) => started + durationMs * fraction;
  const plan: { when: number; run: () => Promise<void> }[] = [
    {
      when: at(0.3),
      run: async () => {
        await cluster.restart("fast");
        stats.restartsFast++;
      },
    },
    {
      when: at(0.5),
      run: async () => {
        const pids = cluster.freeze();
        await sleep(700);
        cluster.thaw(pids);
        stats.freezes++;
      },
    },
    {
      when: at(0.7),
      run: async () => {
        await cluster.restart("immediate");
        stats.restartsImmediate++;
      },
    },
  ];
  const end = started + durationMs * 0.9;
  while (Date.now() < end) {
    const due = plan.find((p) => p.when <= Date.now());
    if (due) {
      plan.splice(plan.indexOf(due), 1);
      const t0 = Date.now() - started;
      await due.run();
      stats.log.push(`${t0}..${Date.now() - started} ms`);
      continue;
    }
    await sleep(500 + Math.random() * 800);
    const n = 1 + Math.floor(Math.random() * 2);
    stats.backendsKilled += await cluster
      .terminateBackends(database, `application_name = 'weir' and pid in (select pid from pg_stat_activity where application_name = 'weir' order by random() limit ${n})`)
      .catch(() => 0);
  }
  return stats;
}
