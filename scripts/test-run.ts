/**
 * `npm test [-- stage...]`: the preflight finds or provisions what the stages need
 * (PostgreSQL, NATS, Chromium), then lint, typecheck, unit, faults and e2e run in order
 * with what it found in their environment, and whatever it started is stopped at the end.
 * WEIR_TEST_PG=embedded runs on the npm-shipped PostgreSQL even where one answers on 5432.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { PreflightFailure, preflight, type Provisioned } from "./preflight";
import { parseStages, type Stage } from "./preflight-plan";

const SCRIPT: Record<Stage, string> = {
  lint: "lint",
  typecheck: "typecheck",
  unit: "test:unit",
  faults: "test:faults",
  e2e: "test:e2e",
  examples: "test:examples:vitest",
  pgbouncer: "test:pgbouncer:vitest",
};

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

let child: ChildProcess | undefined;
let interrupted: NodeJS.Signals | undefined;

function runStage(stage: Stage, env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    // Its own process group, so that a signal reaches every process the stage started, and none outlives it.
    child = spawn("npm", ["run", "--silent", SCRIPT[stage]], { stdio: "inherit", env: { ...process.env, ...env }, detached: true });
    child.once("error", (err) => {
      console.error(`${stage}: ${err.message}`);
      resolve(1);
    });
    child.once("exit", (code, signal) => {
      signalStage("SIGKILL");
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function signalStage(signal: NodeJS.Signals): void {
  try {
    if (child?.pid) process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  let stages: Stage[];
  let provisioned: Provisioned;
  try {
    stages = parseStages(process.argv.slice(2));
    provisioned = await preflight(stages);
  } catch (err) {
    console.error(err instanceof PreflightFailure ? err.message : `npm test cannot start: ${(err as Error).message}`);
    return 1;
  }
  for (const line of provisioned.report) console.log(`preflight: ${line}`);
  console.log(`preflight: ready in ${seconds(started)}; stages: ${stages.join(", ")}`);

  // Ctrl-C or a kill is passed on to the running stage; what the preflight started is torn down after.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      interrupted = signal;
      signalStage(signal);
    });
  }
  let failed: Stage | undefined;
  try {
    for (const stage of stages) {
      const stageStarted = Date.now();
      console.log(`\n== ${stage}`);
      const code = await runStage(stage, provisioned.env);
      console.log(`== ${stage}: ${code === 0 ? "passed" : `failed (exit ${code})`} in ${seconds(stageStarted)}`);
      if (code !== 0 || interrupted) {
        failed = stage;
        break;
      }
    }
  } finally {
    await provisioned.teardown();
  }
  if (interrupted) return 130;
  console.log(failed ? `\nnpm test: ${failed} failed (${seconds(started)})` : `\nnpm test: all stages passed (${seconds(started)})`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  },
);
