import type pg from "pg";
import { seededRandom } from "@/lib/seeded-random";
import type { BenchDatabase } from "./db";
import { mintToken } from "./token";
import { checkMixScripts, type PgbenchScript } from "./pgbench";
import { CheckMix, createPayloadFunctions, payloadText, registerService, seedLastSeen } from "./workload";

export const serviceName = (s: number) => `lat-${s}`;

/** Registers `services` services of `keysPerService` seeded keys each (hashes only). */
export async function seedServices(pool: pg.Pool, services: number, keysPerService: number): Promise<string[]> {
  const names = Array.from({ length: services }, (_, s) => serviceName(s));
  for (const name of names) {
    await registerService(pool, name, 0);
    await seedLastSeen(pool, name, keysPerService);
  }
  return names;
}

/**
 * The open-loop benches' store: the services seeded, `last_seen` vacuumed with autovacuum off (so
 * no row is measured against a vacuum), a token for the services and an admin one for metrics.
 */
export async function prepareOpenLoopStore(db: BenchDatabase, services: number, keysPerService: number) {
  await createPayloadFunctions(db.pool);
  const names = await seedServices(db.pool, services, keysPerService);
  await db.pool.query("alter table last_seen set (autovacuum_enabled = off)");
  await db.pool.query("vacuum analyze last_seen");
  const token = await mintToken(db.store.db, { services: names });
  const adminToken = await mintToken(db.store.db, {}, "admin");
  return { services: names, token, adminToken };
}

/**
 * The check mix of workload.ts (50 % duplicates of seeded payloads, 50 % real changes) over
 * several services, each drawn at random per check.
 */
export class ServicesMix {
  private readonly mix: CheckMix;
  private readonly pick: () => number;

  constructor(
    private readonly services: number,
    keysPerService: number,
    seed: number,
  ) {
    this.mix = new CheckMix(keysPerService, seed);
    this.pick = seededRandom(seed ^ 0x5eed);
  }

  checkBody(): string {
    const service = serviceName(Math.floor(this.pick() * this.services));
    const [k, v] = this.mix.next();
    return `{"serviceId":"${service}","messageId":"m-${k}","payload":${payloadText(k, v)}}`;
  }
}

/** pgbench's side of the same mix: checkMixScripts' statements with the service drawn per transaction. */
export function servicesMixScripts(services: number, keysPerService: number): PgbenchScript[] {
  return checkMixScripts("SERVICE", keysPerService).map((script) => ({
    ...script,
    sql: `\\set s random(0, ${services - 1})\n${script.sql.replace("'SERVICE'", `'${serviceName(0).slice(0, -1)}' || :s`)}`,
  }));
}
