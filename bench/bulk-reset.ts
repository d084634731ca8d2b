/**
 * Scenario 6a: a bulk reset of 1 M keys (--quick: 100 k) with weir's reset verb
 * (lib/reset: startReset + runReset, bounded batches that keep undo rows) while
 * a steady check load runs over HTTP on another service. Baseline in the same
 * run: one unbounded DELETE of the same number of keys under the same load.
 * Run: npx tsx bench/bulk-reset.ts [--quick]. Never fails on timing.
 */
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { previewReset } from "@/lib/reset/preview-reset";
import { runReset } from "@/lib/reset/run-reset";
import { startReset } from "@/lib/reset/start-reset";
import { hasFlag, numberFlag, quick, runMain, sleep } from "./lib/cli";
import { assertDecisions, prepareCheckDatabase, SERVICE } from "./lib/check-setup";
import { describeLoad, drive, type LoadResult } from "./lib/load";
import { serveWeir } from "./lib/processes";
import { machineLine, ratio, report } from "./lib/report";
import { CheckMix, registerService, seedLastSeen } from "./lib/workload";

const RESET_KEYS = numberFlag("keys", quick ? 100_000 : 1_000_000);
const LIVE_KEYS = quick ? 50_000 : 200_000;
const RATE = numberFlag("rate", quick ? 500 : 1_000);
const BASELINE_SECONDS = quick ? 3 : 10;
const RESET_SERVICE = "reset-me";
const DELETE_SERVICE = "delete-me";

async function main(): Promise<void> {
  console.log(`bulk-reset: ${machineLine()}; reset ${RESET_KEYS.toLocaleString("en-US")} keys under ${RATE} checks/s`);
  const { db, token } = await prepareCheckDatabase("reset", LIVE_KEYS);
  const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only") });
  try {
    for (const id of [RESET_SERVICE, DELETE_SERVICE]) {
      await registerService(db.pool, id, 0);
      await seedLastSeen(db.pool, id, RESET_KEYS);
    }
    await db.pool.query("vacuum analyze last_seen");
    await assertDecisions(weir.url, token, LIVE_KEYS);
    const mix = new CheckMix(LIVE_KEYS, 23);
    const load = (seconds: number, stopWhen?: Promise<unknown>) =>
      drive({ url: weir.url, path: "/api/v1/check", token, body: () => mix.checkBody(SERVICE), connections: 16, rate: RATE, seconds, stopWhen });
    await load(2);

    const quiet = await load(BASELINE_SECONDS);
    console.log(`  check load alone: ${describeLoad(quiet)}`);

    // Baseline: one unbounded statement, locks every row until it commits, no undo.
    let deleteMs = 0;
    const deleting = (async () => {
      await sleep(500);
      const t = performance.now();
      await db.pool.query("delete from last_seen where service_id = $1", [DELETE_SERVICE]);
      deleteMs = performance.now() - t;
    })();
    const underDelete = await load(600, deleting);
    console.log(`  one DELETE of ${RESET_KEYS} keys: ${(deleteMs / 1000).toFixed(1)} s; checks meanwhile: ${describeLoad(underDelete)}`);

    // The dry run an operator sees first (count and a sample of the selection).
    const selection = { kind: "last_seen" as const, subject: RESET_SERVICE, mode: "filter" as const };
    const p0 = performance.now();
    const preview = await previewReset({ db: db.store.db, actor: SYSTEM_ACTOR, input: selection });
    const previewMs = performance.now() - p0;
    console.log(`  preview of the reset: ${preview.count} keys, ${preview.sample.length} sampled, in ${previewMs.toFixed(0)} ms`);

    let resetMs = 0;
    let affected = 0;
    let batchSize = 0;
    const resetting = (async () => {
      await sleep(500);
      const t = performance.now();
      const started = await startReset({
        db: db.store.db,
        actor: SYSTEM_ACTOR,
        input: { selection, reason: "benchmark", confirmation: RESET_SERVICE },
      });
      const done = await runReset(db.store.db, started.id);
      resetMs = performance.now() - t;
      affected = done?.affected ?? 0;
      batchSize = done?.batchSize ?? 0;
      if (done?.status !== "done") throw new Error(`reset ended as ${done?.status}`);
    })();
    const underReset = await load(600, resetting.catch(() => undefined));
    await resetting;
    console.log(`  weir reset of ${affected} keys: ${(resetMs / 1000).toFixed(1)} s in batches of ${batchSize}; checks meanwhile: ${describeLoad(underReset)}`);

    const fail = (r: LoadResult) => r.non2xx + r.errors;
    const scaled = 60 * (RESET_KEYS / 1_000_000);
    report(
      "6a. bulk reset under check load",
      [
        { metric: `weir reset of ${RESET_KEYS.toLocaleString("en-US")} keys`, unit: "s", ours: resetMs / 1000, baseline: deleteMs / 1000, baselineName: "1 DELETE", ratio: ratio(resetMs, deleteMs), target: `< ${scaled.toFixed(0)} s`, met: resetMs / 1000 < scaled },
        { metric: "reset rate", unit: "keys/s", ours: (affected / resetMs) * 1000, baseline: (RESET_KEYS / deleteMs) * 1000, baselineName: "1 DELETE", ratio: ratio(affected / resetMs, RESET_KEYS / deleteMs), target: "info" },
        { metric: "check p99 during the reset", unit: "ms", ours: underReset.p99, baseline: quiet.p99, baselineName: "no reset", ratio: ratio(underReset.p99, quiet.p99), target: "< 50 ms", met: underReset.p99 < 50 },
        { metric: "check p99 during one DELETE", unit: "ms", ours: underDelete.p99, target: "info" },
        { metric: "reset preview (count + sample)", unit: "ms", ours: previewMs, target: "info" },
        { metric: "failed checks during the reset", ours: fail(underReset), baseline: fail(quiet), baselineName: "no reset", target: "0", met: fail(underReset) === 0 },
      ],
      [`${RATE} checks/s open-loop at 16 connections on another service (50 % duplicates); the reset keeps undo rows, the DELETE does not`],
    );
  } finally {
    await weir.stop();
    await db.drop();
  }
}

runMain(main);
