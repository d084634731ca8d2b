/**
 * Scaling: the same single-check load on one PostgreSQL and on a 3-node Citus
 * cluster (a coordinator and two workers, private clusters on this machine).
 * Each contender gets 64 concurrent callers submitting single checks through
 * the check coalescer (what the HTTP API runs), over 10,000 keys with two
 * payload variants (duplicates and changes mixed). On one box Citus cannot win
 * (three servers share the cores, every check crosses two hops); the point is
 * that it routes: the ratio was 44 / 6,739 when the batch statement fanned out.
 * Run: npx tsx bench/scaling.ts [--seconds N] [--quick]. Never fails on timing.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import { createPool } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import * as schema from "@/db/schema";
import type { DbOrTx } from "@/db/types";
import { coalescerOptionsFromEnv } from "@/lib/dedup/coalescer";
import { hashForService } from "@/lib/dedup/last-seen/check";
import { CheckCoalescer } from "@/lib/dedup/last-seen/coalescer";
import { serviceConfigs } from "@/lib/services/service-config";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { saveService } from "@/lib/services/save-service";
import { CitusCluster } from "@/test/citus/citus-cluster";
import { createBenchDatabase } from "./lib/db";
import { numberFlag, quick, runMain } from "./lib/cli";
import { machineLine, ratio, report } from "./lib/report";

const SECONDS = numberFlag("seconds", quick ? 2 : 5);
const CALLERS = 64;
const KEYS = 10_000;
const SERVICE = "scaling-svc";

interface Measured {
  checks: number;
  perSecond: number;
  decisions: Record<string, number>;
}

async function drive(db: DbOrTx, seconds: number): Promise<Measured> {
  await saveService({ db, actor: SYSTEM_ACTOR, id: SERVICE, input: {} });
  serviceConfigs.invalidate();
  const config = await serviceConfigs.require(db, SERVICE);
  const coalescer = new CheckCoalescer(async () => db, coalescerOptionsFromEnv());
  const decisions: Record<string, number> = {};
  let checks = 0;
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const end = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (Date.now() < end) {
        const key = `k-${Math.floor(random() * KEYS)}`;
        const outcome = await coalescer.submit(hashForService(config, key, `{"v":${random() < 0.8 ? 1 : 2}}`));
        decisions[outcome.decision] = (decisions[outcome.decision] ?? 0) + 1;
        checks++;
      }
    }),
  );
  return { checks, perSecond: checks / ((performance.now() - started) / 1000), decisions };
}

async function onDatabase(url: string, seconds: number): Promise<Measured> {
  const pool = createPool({ ...storeConfigFromEnv(), poolMax: 20 }, url);
  try {
    const db = drizzle({ client: pool, schema });
    await drive(db, 1); // warm-up: JIT, prepared statements, the first keys
    return await drive(db, seconds);
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  console.log(`scaling: ${machineLine()}; ${CALLERS} callers, ${KEYS} keys, ${SECONDS} s per contender`);
  const plain = await createBenchDatabase("scaling");
  const citus = await CitusCluster.create();
  try {
    const citusUrl = await citus.createDatabase("weir_scaling");
    const single = await onDatabase(plain.url, SECONDS);
    console.log(`  one PostgreSQL: ${Math.round(single.perSecond)} checks/s ${JSON.stringify(single.decisions)}`);
    const distributed = await onDatabase(citusUrl, SECONDS);
    console.log(`  Citus (coordinator + 2 workers): ${Math.round(distributed.perSecond)} checks/s ${JSON.stringify(distributed.decisions)}`);
    const r = ratio(distributed.perSecond, single.perSecond);
    report("scaling: single checks, one PostgreSQL vs Citus on the same machine", [
      {
        metric: "Citus vs one PostgreSQL",
        unit: "checks/s",
        ours: distributed.perSecond,
        baseline: single.perSecond,
        ratio: r,
        target: "well above 44 / 6,739 = 0.0065x (routed)",
        met: r > 0.0065 * 5,
      },
    ]);
  } finally {
    await citus.destroy();
    await plain.drop();
  }
}

runMain(main);
