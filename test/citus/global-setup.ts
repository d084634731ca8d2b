import type { TestProject } from "vitest/node";
import { CitusCluster, type CitusPorts } from "./citus-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    citusPorts: CitusPorts;
  }
}

/**
 * Starts the Citus cluster of this run (a coordinator and two workers, private
 * data directories on loopback ports) and tears it down at the end. Test files
 * create their own databases on it (test/citus/citus-test-db.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await CitusCluster.create();
  project.provide("citusPorts", cluster.ports);
  project.provide("runPrefix", "weir_c");
  project.provide("templateDatabase", "unused_on_citus");
  return () => cluster.destroy();
}
