/**
 * A consumer with 64 messages in flight, each checked through the typed client (@weir/client):
 * with coalescing (its default: the checks of one turn travel as one batch request) against one
 * request per check (coalesce: false), alternating in the same run against one weir server
 * (the real one, dist/server.mjs), 50 % duplicates. Reports checks/s and the p99 of a check as
 * the consumer sees it (call to answer), and their ratios. The target: >= 3x the checks/s at an
 * equal or lower p99.
 * Run: npx tsx bench/client-coalescing.ts [--quick] [--seconds N] [--rounds N] [--in-flight N]
 */
import { createWeirClient, type WeirClient } from "@weir/client";
import { assertDecisions, prepareCheckDatabase, SERVICE, settle } from "./lib/check-setup";
import { numberFlag, quick, runMain } from "./lib/cli";
import { serveWeir } from "./lib/processes";
import { machineLine, median, percentile, ratio, report } from "./lib/report";
import { CheckMix, payloadText } from "./lib/workload";

const KEYS = numberFlag("keys", quick ? 20_000 : 200_000);
const SECONDS = numberFlag("seconds", quick ? 3 : 10);
const ROUNDS = numberFlag("rounds", quick ? 2 : 3);
const IN_FLIGHT = numberFlag("in-flight", 64);

interface Run {
  checksPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Requests weir refused (429/503: its in-flight share or load shedding) that the client retried. */
  retries: number;
}

interface Counted {
  client: WeirClient;
  requests: number;
  retries: number;
}

/** IN_FLIGHT workers, each handling one message after another until the time is up. */
async function consume(counted: Counted, mix: CheckMix, seconds: number): Promise<Run> {
  const { client } = counted;
  const latencies: number[] = [];
  const before = { requests: counted.requests, retries: counted.retries };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const [k, v] = mix.next();
      const sent = performance.now();
      const answer = await client.check({ serviceId: SERVICE, messageId: `m-${k}`, payload: JSON.parse(payloadText(k, v)) as unknown });
      latencies.push(performance.now() - sent);
      if (answer.decision === (v === 0 ? "changed" : "duplicate")) throw new Error(`m-${k}: unexpected ${answer.decision}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return { checksPerSecond: latencies.length / elapsed, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), requests: counted.requests - before.requests, retries: counted.retries - before.retries };
}

/** A client of the server, counting the HTTP requests it sends and the refusals it retries. */
function clientOf(url: string, token: string, coalesce: boolean): Counted {
  const counted = { requests: 0, retries: 0 } as Counted;
  counted.client = createWeirClient({
    baseUrl: url,
    token,
    coalesce,
    onRetry: () => counted.retries++,
    fetch: (input, init) => {
      counted.requests++;
      return fetch(input, init);
    },
  });
  return counted;
}

async function main(): Promise<void> {
  console.log(`client-coalescing: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${IN_FLIGHT} messages in flight, ${ROUNDS} round(s) x ${SECONDS} s per contender`);
  const { db, token } = await prepareCheckDatabase("client_coalescing", KEYS);
  const weir = await serveWeir(db.url);
  try {
    await assertDecisions(weir.url, token, KEYS);
    const contenders = { single: clientOf(weir.url, token, false), coalesced: clientOf(weir.url, token, true) };
    const mix = new CheckMix(KEYS, 23);
    for (const contender of Object.values(contenders)) await consume(contender, mix, quick ? 1 : 3);

    const runs = { single: [] as Run[], coalesced: [] as Run[] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const name of ["single", "coalesced"] as const) {
        await settle(db);
        const run = await consume(contenders[name], mix, SECONDS);
        runs[name].push(run);
        const perRequest = (run.checksPerSecond * SECONDS) / Math.max(1, run.requests);
        console.log(
          `  round ${round} ${name.padEnd(9)}: ${Math.round(run.checksPerSecond)} checks/s, p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms, ` +
            `${run.requests} requests (${perRequest.toFixed(1)} checks each), ${run.retries} refused and retried`,
        );
      }
    }
    const m = (list: Run[], pick: (run: Run) => number) => median(list.map(pick));
    const throughput = ratio(m(runs.coalesced, (r) => r.checksPerSecond), m(runs.single, (r) => r.checksPerSecond));
    const p99 = ratio(m(runs.coalesced, (r) => r.p99Ms), m(runs.single, (r) => r.p99Ms));
    report(
      "client-coalescing",
      [
        {
          metric: `checks/s, ${IN_FLIGHT} in flight, coalesced`,
          ours: m(runs.coalesced, (r) => r.checksPerSecond),
          baseline: m(runs.single, (r) => r.checksPerSecond),
          baselineName: "one request per check",
          ratio: throughput,
          target: ">= 3x",
          met: throughput >= 3,
        },
        {
          metric: "p99 of a check, coalesced",
          unit: "ms",
          ours: m(runs.coalesced, (r) => r.p99Ms),
          baseline: m(runs.single, (r) => r.p99Ms),
          baselineName: "one request per check",
          ratio: p99,
          target: "<= 1.0x",
          met: p99 <= 1,
        },
        { metric: "p50 of a check, coalesced", unit: "ms", ours: m(runs.coalesced, (r) => r.p50Ms), baseline: m(runs.single, (r) => r.p50Ms), ratio: ratio(m(runs.coalesced, (r) => r.p50Ms), m(runs.single, (r) => r.p50Ms)), target: "-" },
      ],
      [`medians of ${ROUNDS} alternating rounds; the consumer and weir share this machine's cores`],
    );
  } finally {
    await weir.stop();
    await db.drop();
  }
}

runMain(main);
