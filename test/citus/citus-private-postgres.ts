import type pg from "pg";
import { PrivatePostgres as SinglePostgres, type StopMode } from "../faults/private-postgres";
import { CitusCluster } from "./citus-cluster";

export type { StopMode };

/**
 * The fault suite's private cluster, as a Citus cluster: the Citus suite's
 * config puts this in place of test/faults/private-postgres.ts. Faults (stop,
 * crash, freeze, killed backends) hit the coordinator, which weir talks to;
 * the workers keep running.
 */
export class PrivatePostgres {
  private constructor(private readonly citus: CitusCluster) {}

  static async create(): Promise<PrivatePostgres> {
    return new PrivatePostgres(await CitusCluster.create());
  }

  private get coordinator(): SinglePostgres {
    return this.citus.coordinator;
  }

  get port(): number {
    return this.coordinator.port;
  }

  url(database = "postgres"): string {
    return this.coordinator.url(database);
  }

  createDatabase(name: string): Promise<string> {
    return this.citus.createDatabase(name);
  }

  start(): Promise<void> {
    return this.coordinator.start();
  }

  stop(mode: StopMode = "fast"): Promise<void> {
    return this.coordinator.stop(mode);
  }

  restart(mode: StopMode = "fast"): Promise<void> {
    return this.coordinator.restart(mode);
  }

  /** SIGSTOPs the coordinator; its backends come and go (worker connections), so one may be gone already. */
  freeze(): number[] {
    const stopped: number[] = [];
    for (const pid of this.coordinator.processIds()) {
      try {
        process.kill(pid, "SIGSTOP");
        stopped.push(pid);
      } catch {
        // ended between the listing and the signal
      }
    }
    return stopped;
  }

  thaw(pids?: number[]): void {
    this.coordinator.thaw(pids);
  }

  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = [], database = "postgres"): Promise<Row[]> {
    return this.coordinator.query<Row>(sql, params, database);
  }

  terminateBackends(database: string, where = "true"): Promise<number> {
    return this.coordinator.terminateBackends(database, where);
  }

  serverLog(): string {
    return this.coordinator.serverLog();
  }

  destroy(): Promise<void> {
    return this.citus.destroy();
  }
}
