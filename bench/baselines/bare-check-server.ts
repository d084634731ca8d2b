/**
 * Baseline for bench/check-single.ts: the simplest correct check server one
 * would write with node:http and pg. It parses the body with JSON.parse, hashes
 * the payload with weir's structural hash, and runs the single upsert-CAS
 * statement (named, so prepared once per connection) for every request. No
 * auth, no coalescing, no metrics. Env: DATABASE_URL, PORT, BARE_POOL_MAX (20).
 */
import http from "node:http";
import pg from "pg";
import { structuralHashOfValue } from "../../lib/dedup/canonical/structural-hash";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BARE_POOL_MAX ?? 20) });
pool.on("error", (err) => console.error(`idle connection failed: ${err.message}`));

const UPSERT_CAS = `insert into last_seen as s (service_id, message_id, hash, version, first_seen, last_changed)
values ($1, $2, decode($3, 'hex'), 1, now(), now())
on conflict (service_id, message_id) do update
  set hash = excluded.hash, version = s.version + 1, last_changed = excluded.last_changed
  where s.hash is distinct from excluded.hash
returning version`;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function check(text: string): Promise<unknown> {
  const { serviceId, messageId, payload } = JSON.parse(text) as { serviceId: string; messageId: string; payload: unknown };
  const { hash } = structuralHashOfValue(payload);
  const { rows } = await pool.query<{ version: string }>({ name: "bare_check", text: UPSERT_CAS, values: [serviceId, messageId, hash] });
  const row = rows[0];
  return row
    ? { serviceId, messageId, decision: row.version === "1" ? "new" : "changed", version: Number(row.version), hash }
    : { serviceId, messageId, decision: "duplicate", hash };
}

const server = http.createServer((req, res) => {
  if (req.url === "/api/health") return send(res, 200, { status: "ok" });
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    check(Buffer.concat(chunks).toString("utf8")).then(
      (body) => send(res, 200, body),
      (err: Error) => send(res, err instanceof SyntaxError ? 400 : 503, { error: { message: err.message } }),
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? "127.0.0.1");
process.once("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
