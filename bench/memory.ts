/**
 * Scenario 7: resident memory of one weir process (console + API) under the
 * load of scenario 1 (64 connections, 50 % duplicates over 1 M keys), sampled
 * from /proc/<pid>/status (VmRSS) every 250 ms. Baseline in the same run: the
 * bare node:http + pg server under the same load.
 * Run: npx tsx bench/memory.ts [--quick] [--seconds N]. Never fails on timing.
 */
import { hasFlag, numberFlag, quick, runMain, sleep } from "./lib/cli";
import { assertDecisions, prepareCheckDatabase, SERVICE } from "./lib/check-setup";
import { describeLoad, drive } from "./lib/load";
import { serve, serveWeir, type Served } from "./lib/processes";
import { machineLine, ratio, report } from "./lib/report";
import { CheckMix } from "./lib/workload";

const KEYS = numberFlag("keys", quick ? 100_000 : 1_000_000);
const SECONDS = numberFlag("seconds", quick ? 5 : 30);
const MB = 2 ** 20;

async function peakUnder(server: Served, run: () => Promise<unknown>): Promise<{ peak: number; samples: number[] }> {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(server.rssBytes()), 250);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  samples.push(server.rssBytes());
  return { peak: Math.max(...samples.filter(Number.isFinite)), samples };
}

async function main(): Promise<void> {
  console.log(`memory: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${SECONDS} s of load`);
  const { db, token } = await prepareCheckDatabase("memory", KEYS);
  const weir = await serveWeir(db.url, { apiOnly: hasFlag("api-only") });
  const bare = await serve("bench/baselines/bare-check-server.ts", { DATABASE_URL: db.url }, { label: "bare server" });
  try {
    await assertDecisions(weir.url, token, KEYS);
    // Load the console's server bundles too, as a node that serves people would have them.
    const page = await fetch(`${weir.url}/sign-in`, { redirect: "manual" }).catch(() => undefined);
    await sleep(1000);
    const idle = weir.rssBytes();
    const mix = new CheckMix(KEYS, 29);
    const load = (url: string, withToken: boolean) =>
      drive({ url, path: "/api/v1/check", token: withToken ? token : undefined, body: () => mix.checkBody(SERVICE), connections: 64, seconds: SECONDS });
    let weirLoad = "";
    const ours = await peakUnder(weir, async () => (weirLoad = describeLoad(await load(weir.url, true))));
    let bareLoad = "";
    const base = await peakUnder(bare, async () => (bareLoad = describeLoad(await load(bare.url, false))));
    await sleep(2000);
    const after = weir.rssBytes();
    console.log(`  weir (${weir.mode}, console page ${page?.status ?? "unreachable"}): ${weirLoad}`);
    console.log(`  bare: ${bareLoad}`);
    report(
      "7. memory of one weir process under the load of (1)",
      [
        { metric: "weir peak RSS under load", unit: "MB", ours: ours.peak / MB, baseline: base.peak / MB, baselineName: "bare", ratio: ratio(ours.peak, base.peak), target: "< 300 MB", met: ours.peak < 300 * MB },
        { metric: "weir RSS idle before / 2 s after", unit: "MB", ours: `${(idle / MB).toFixed(0)} / ${(after / MB).toFixed(0)}`, target: "info" },
      ],
      [`weir ${weir.mode}; ${ours.samples.length} samples of VmRSS every 250 ms`],
    );
  } finally {
    await weir.stop();
    await bare.stop();
    await db.drop();
  }
}

runMain(main);
