/**
 * One load run in a process of its own (see driveCheckMixFresh in load-fresh.ts):
 * reads its spec from argv, drives autocannon with the check mix, and prints the
 * LoadResult as JSON on stdout, with the CPU this process spent on the run itself
 * (its start-up excluded).
 */
import { drive } from "./load";
import { CheckMix } from "./workload";
import type { FreshLoadSpec } from "./load-fresh";

const spec = JSON.parse(process.argv[2]!) as FreshLoadSpec;
const mix = new CheckMix(spec.keys, spec.seed);
const before = process.cpuUsage();
const result = await drive({
  url: spec.url,
  path: "/api/v1/check",
  token: spec.token,
  body: () => mix.checkBody(spec.serviceId),
  connections: spec.connections,
  seconds: spec.seconds,
});
const used = process.cpuUsage(before);
process.stdout.write(JSON.stringify({ ...result, loaderCpuSeconds: (used.user + used.system) / 1e6 }));
process.exit(0);
