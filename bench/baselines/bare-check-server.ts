/**
 * Baseline for bench/check-single.ts: the simplest correct check server one
 * would write with node:http and pg. It parses the body with JSON.parse, hashes
 * the payload with weir's structural hash, and runs the single upsert-CAS
 * statement (named, so prepared once per connection) for every request. No
 * auth, no coalescing, no metrics. Env: DATABASE_URL, PORT, BARE_POOL_MAX (20).
 */
import pg from "pg";
import { structuralHashOfValue } from "../../lib/dedup/canonical/structural-hash";
import { serveChecks } from "./check-http";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BARE_POOL_MAX ?? 20) });
pool.on("error", (err) => console.error(`idle connection failed: ${err.message}`));

const UPSERT_CAS = `insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
values ($1, $2, decode($3, 'hex'), 1, now(), now())
on conflict (service_id, message_id) do update
  set hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
  where s.hash is distinct from excluded.hash
returning version`;

async function check(text: string): Promise<unknown> {
  const { serviceId, messageId, payload } = JSON.parse(text) as { serviceId: string; messageId: string; payload: unknown };
  const { hash } = structuralHashOfValue(payload);
  const { rows } = await pool.query<{ version: string }>({ name: "bare_check", text: UPSERT_CAS, values: [serviceId, messageId, hash] });
  const row = rows[0];
  return row
    ? { serviceId, messageId, decision: row.version === "1" ? "new" : "changed", version: Number(row.version), hash }
    : { serviceId, messageId, decision: "duplicate", hash };
}

serveChecks(pool, check);
