/**
 * One generator run in a process of its own (see open-loop-drive.ts): reads its spec from argv,
 * drives the route, and prints the GeneratorResult as JSON on stdout.
 */
import { runGenerator } from "./open-loop";
import type { OpenLoopRun } from "./open-loop-drive";
import { ServicesMix } from "./open-loop-workload";

const run = JSON.parse(process.argv[2]!) as OpenLoopRun;
const mix = new ServicesMix(run.workload.services, run.workload.keysPerService, run.spec.seed);
const result = await runGenerator(run.spec, () => mix.checkBody());
process.stdout.write(JSON.stringify(result));
process.exit(0);
