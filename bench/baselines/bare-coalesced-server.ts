/**
 * Baseline for bench/cpu-per-check.ts: the bare check server (bare-check-server.ts) with the one
 * thing weir adds for throughput, coalescing, and nothing else. Checks that arrive in one turn of
 * the event loop go to PostgreSQL as one upsert-CAS statement over arrays, with at most
 * BARE_MAX_IN_FLIGHT (4) statements running. No auth, limits, metrics, journal or stats: what it
 * spends per check is the least a coalescing check server spends on this machine, so weir's CPU per
 * check has a floor to be read against. A key already in the batch being gathered waits for the
 * next one (one statement cannot update a row twice). Env: DATABASE_URL, PORT, BARE_POOL_MAX (20).
 */
import pg from "pg";
import { structuralHashOfValue } from "../../lib/dedup/canonical/structural-hash";
import { serveChecks } from "./check-http";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BARE_POOL_MAX ?? 20) });
pool.on("error", (err) => console.error(`idle connection failed: ${err.message}`));
const MAX_IN_FLIGHT = Number(process.env.BARE_MAX_IN_FLIGHT ?? 4);

const BATCH_UPSERT_CAS = `with input as (
  select * from unnest($1::text[], $2::text[], $3::text[]) with ordinality as t(service_id, message_id, hash, ord)
), up as (
  insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
  select service_id, message_id, decode(hash, 'hex'), 1, now(), now() from input order by service_id, message_id
  on conflict (service_id, message_id) do update
    set hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
    where s.hash is distinct from excluded.hash
  returning s.service_id, s.message_id, s.version
)
select i.ord, up.version from input i left join up using (service_id, message_id)`;

interface Pending {
  serviceId: string;
  messageId: string;
  hash: string;
  resolve: (version: number | null) => void;
  reject: (err: Error) => void;
}

let queue: Pending[] = [];
let inFlight = 0;
let scheduled = false;

function schedule(): void {
  if (scheduled || inFlight >= MAX_IN_FLIGHT || queue.length === 0) return;
  scheduled = true;
  setImmediate(flush);
}

function flush(): void {
  scheduled = false;
  const batch: Pending[] = [];
  const rest: Pending[] = [];
  const keys = new Set<string>();
  for (const item of queue) {
    const key = `${item.serviceId}\u0000${item.messageId}`;
    if (keys.has(key)) {
      rest.push(item);
      continue;
    }
    keys.add(key);
    batch.push(item);
  }
  queue = rest;
  inFlight++;
  pool
    .query<{ ord: string; version: string | null }>({
      name: "bare_check_batch",
      text: BATCH_UPSERT_CAS,
      values: [batch.map((i) => i.serviceId), batch.map((i) => i.messageId), batch.map((i) => i.hash)],
    })
    .then(
      ({ rows }) => {
        for (const row of rows) batch[Number(row.ord) - 1]!.resolve(row.version === null ? null : Number(row.version));
      },
      (err: Error) => batch.forEach((item) => item.reject(err)),
    )
    .finally(() => {
      inFlight--;
      schedule();
    });
  schedule();
}

async function check(text: string): Promise<unknown> {
  const { serviceId, messageId, payload } = JSON.parse(text) as { serviceId: string; messageId: string; payload: unknown };
  const { hash } = structuralHashOfValue(payload);
  const version = await new Promise<number | null>((resolve, reject) => {
    queue.push({ serviceId, messageId, hash, resolve, reject });
    schedule();
  });
  return version === null
    ? { serviceId, messageId, decision: "duplicate", hash }
    : { serviceId, messageId, decision: version === 1 ? "new" : "changed", version, hash };
}

serveChecks(pool, check);
