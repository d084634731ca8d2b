import pg from "pg";
import { assertLocal, withAdmin } from "../../test/pg-admin";
import { E2E_DATABASE, e2eDatabaseUrl } from "./database";

/** Direct SQL on the local e2e database, for what the API cannot make: past traffic in the stats rollup. */
export async function e2eSql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  assertLocal(e2eDatabaseUrl);
  const client = new pg.Client({ connectionString: e2eDatabaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** `duplicates(minutesAgo)` per minute of the last `minutes` for a service, written into the per-minute stats. */
export async function seedMinuteStats(serviceId: string, minutes: number, duplicates: (minutesAgo: number) => number) {
  const rows = Array.from({ length: minutes }, (_, m) => [m, duplicates(m)] as const);
  await e2eSql(
    `insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
     select 'service', $1, date_trunc('minute', now()) - make_interval(mins => r.m), r.d + 10, 10, 0, r.d, 0, 0
     from unnest($2::int[], $3::bigint[]) as r(m, d)`,
    [serviceId, rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
}

/**
 * A store outage as weir sees one: the e2e database refuses new connections and its open ones are
 * cut. `restore` lets it answer again.
 */
export async function cutStore() {
  await withAdmin(async (admin) => {
    await admin.query(`alter database "${E2E_DATABASE}" allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [E2E_DATABASE]);
  });
  return () => withAdmin(async (admin) => void (await admin.query(`alter database "${E2E_DATABASE}" allow_connections true`)));
}

/**
 * `traffic(minutesAgo)` (checks and duplicates) per minute of the last `minutes` for a service, in the
 * per-minute stats. Minutes that far back are older than what the rollups re-sum, so their marks are
 * cleared: the overview reads minutes until the rollups have been rebuilt (as on a fresh install).
 */
export async function seedTraffic(serviceId: string, minutes: number, traffic: (minutesAgo: number) => { checks: number; duplicates: number }) {
  const rows = Array.from({ length: minutes }, (_, m) => traffic(m));
  await e2eSql(
    `insert into stats_minute (subject_kind, subject, bucket, checks, new, changed, duplicates, errors, late_redeliveries)
     select 'service', $1, date_trunc('minute', now()) - make_interval(mins => (r.m - 1)::int), r.c, r.c - r.d, 0, r.d, 0, 0
     from unnest($2::int[], $3::bigint[]) with ordinality as r(c, d, m)`,
    [serviceId, rows.map((r) => r.checks), rows.map((r) => r.duplicates)],
  );
  await e2eSql("delete from stats_rollup");
}
