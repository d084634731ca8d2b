import { prepareCheckDatabase, SERVICE, settle } from "./check-setup";
import { walBytes } from "./db";
import { checkMixScripts, pgbench } from "./pgbench";
import { median, type Row } from "./report";

const VARIANTS = {
  none: null,
  btree: "create index last_seen_by_hash on last_seen using btree (hash)",
  hash: "create index last_seen_by_hash on last_seen using hash (hash)",
} as const;
type Variant = keyof typeof VARIANTS;

/**
 * What an index on last_seen(hash) would cost every check: the bare check statement
 * (pgbench, prepared, 32 clients) over `keys` keys, 50 % duplicates and 50 % changes,
 * and changes only, with no hash index, a btree and a hash index, rotated within each
 * round so that all three share the machine's state. Ratios against "none".
 */
export async function measureHashIndexCost(keys: number, rounds: number, seconds: number): Promise<Row[]> {
  const { db } = await prepareCheckDatabase("hash_index_cost", keys);
  try {
    const mix = checkMixScripts(SERVICE, keys);
    const workloads = { "50 % duplicates": mix, "changes only": mix.filter((s) => s.name === "change") };
    const tps = new Map<string, number[]>();
    const wal = new Map<string, number[]>();
    const order = Object.keys(VARIANTS) as Variant[];
    for (let round = 0; round < rounds; round++) {
      for (let v = 0; v < order.length; v++) {
        const variant = order[(v + round) % order.length]!;
        await db.pool.query("drop index if exists last_seen_by_hash");
        const create = VARIANTS[variant];
        if (create) await db.pool.query(create);
        for (const [workload, scripts] of Object.entries(workloads)) {
          await settle(db);
          const wal0 = await walBytes(db.pool);
          const r = await pgbench({ database: db.name, scripts, clients: 32, seconds });
          const perCheck = (await walBytes(db.pool)) - wal0;
          const key = `${workload}|${variant}`;
          tps.set(key, [...(tps.get(key) ?? []), r.tps]);
          wal.set(key, [...(wal.get(key) ?? []), perCheck / r.transactions]);
          console.log(`  round ${round + 1} ${workload}, ${variant}: ${Math.round(r.tps)} checks/s, ${Math.round(perCheck / r.transactions)} WAL bytes/check`);
        }
      }
    }
    const rows: Row[] = [];
    for (const workload of Object.keys(workloads)) {
      const none = median(tps.get(`${workload}|none`)!);
      const noneWal = median(wal.get(`${workload}|none`)!);
      for (const variant of ["btree", "hash"] as const) {
        const ours = median(tps.get(`${workload}|${variant}`)!);
        const ourWal = median(wal.get(`${workload}|${variant}`)!);
        rows.push({ metric: `checks/s, ${workload}, ${variant} index on hash`, ours, baseline: none, baselineName: "no index", ratio: ours / none, target: "info" });
        rows.push({ metric: `WAL bytes/check, ${workload}, ${variant} index on hash`, ours: ourWal, baseline: noneWal, baselineName: "no index", ratio: ourWal / noneWal, target: "info" });
      }
    }
    return rows;
  } finally {
    await db.drop();
  }
}
