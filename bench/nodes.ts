/**
 * Stateless nodes on one PostgreSQL: 1, 2 and 3 weir processes (API only) in
 * front of the same database, each driven by a load process of its own, with
 * the same total of 64 connections split over the nodes. Throughput is the sum
 * over nodes; the ratios are to one node in the same run. On one 2-core box the
 * nodes, the load processes and PostgreSQL share the cores, so this measures
 * that nodes add no coordination cost, not the gain more machines would give.
 * Run: npx tsx bench/nodes.ts [--quick] [--seconds N]. Never fails on timing.
 */
import { numberFlag, quick, runMain } from "./lib/cli";
import { assertDecisions, prepareCheckDatabase, SERVICE, settle } from "./lib/check-setup";
import { driveCheckMixFresh } from "./lib/load-fresh";
import { serveWeir } from "./lib/processes";
import { machineLine, ratio, report, type Row } from "./lib/report";

const KEYS = numberFlag("keys", quick ? 50_000 : 500_000);
const SECONDS = numberFlag("seconds", quick ? 3 : 10);
const CONNECTIONS = 64;
const NODE_COUNTS = [1, 2, 3];

async function main(): Promise<void> {
  console.log(`nodes: ${machineLine()}; ${KEYS.toLocaleString("en-US")} keys, ${CONNECTIONS} connections in all, ${SECONDS} s per step`);
  const { db, token } = await prepareCheckDatabase("nodes", KEYS);
  let seed = 101;
  const perSecond = new Map<number, number>();
  try {
    for (const count of NODE_COUNTS) {
      // Each node's pool is sized so that the nodes together open what one node would.
      const poolMax = String(Math.max(4, Math.floor(20 / count)));
      // One after another: each start re-bundles dist/server.mjs, which must not be written twice at once.
      const nodes: Awaited<ReturnType<typeof serveWeir>>[] = [];
      try {
        for (let i = 0; i < count; i++) nodes.push(await serveWeir(db.url, { apiOnly: true, env: { WEIR_PG_POOL_MAX: poolMax } }));
        for (const node of nodes) await assertDecisions(node.url, token, KEYS);
        const drive = (url: string, seconds: number) =>
          driveCheckMixFresh({ url, token, serviceId: SERVICE, keys: KEYS, seed: seed++, connections: Math.floor(CONNECTIONS / count), seconds });
        await Promise.all(nodes.map((node) => drive(node.url, 1))); // warm-up
        await settle(db);
        const runs = await Promise.all(nodes.map((node) => drive(node.url, SECONDS)));
        const total = runs.reduce((sum, run) => sum + run.rps, 0);
        const failed = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0);
        perSecond.set(count, total);
        console.log(`  ${count} node(s), pool ${poolMax} each: ${Math.round(total)} checks/s in all, ${failed} failed; p99 per node ${runs.map((r) => r.p99).join(", ")} ms`);
      } finally {
        await Promise.all(nodes.map((node) => node.stop()));
      }
    }
    const one = perSecond.get(1)!;
    const rows: Row[] = NODE_COUNTS.map((count) => ({
      metric: `${count} node(s) on one PostgreSQL`,
      unit: "checks/s",
      ours: perSecond.get(count)!,
      baseline: one,
      baselineName: "1 node",
      ratio: ratio(perSecond.get(count)!, one),
      target: "info: the database is the limit on one box",
    }));
    report("nodes: stateless weir nodes on one PostgreSQL", rows);
  } finally {
    await db.drop();
  }
}

runMain(main);
