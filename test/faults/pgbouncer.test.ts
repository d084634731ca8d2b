import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverTimeoutProblem } from "@/db/server-timeouts";
import { adminDb, bearer, createAdminToken, openStore, registerService } from "./fixtures";
import { hasPgBouncer, PrivatePgBouncer, timeoutsOnRole } from "./pgbouncer";
import { PrivatePostgres } from "./private-postgres";
import { WeirNode } from "./weir-node";

/**
 * weir behind PgBouncer in transaction mode: a server connection serves another
 * client after every transaction, so a statement prepared by name on one is
 * missing (or already there) on the next. WEIR_PG_PREPARED=0 sends every hot
 * statement unnamed; with it, 1,200 concurrent checks all get a decision.
 * PgBouncer refuses the timeouts weir sends at connect: WEIR_PG_SEND_TIMEOUTS=0 sends none,
 * and the role carries them, as the README says, so the server still cancels a long statement.
 */
const DATABASE = "weir_pgbouncer";
const SERVICE = "bouncer-svc";
const CHECKS = 1200;
const STATEMENT_TIMEOUT_MS = 5000; // the README's (and production-grants.sql's) 5 s

let cluster: PrivatePostgres;
let databaseUrl: string;
let bouncer: PrivatePgBouncer;
let token: string;
const nodes: WeirNode[] = [];

beforeAll(async () => {
  if (!hasPgBouncer()) throw new Error("PgBouncer is not installed (apt-get install pgbouncer, or set WEIR_PGBOUNCER_BIN)");
  cluster = await PrivatePostgres.create();
  const url = await cluster.createDatabase(DATABASE);
  databaseUrl = url;
  const admin = adminDb(url);
  token = await createAdminToken(admin.db);
  await registerService(admin.db, SERVICE);
  for (const statement of timeoutsOnRole(DATABASE, "postgres", STATEMENT_TIMEOUT_MS)) await admin.pool.query(statement);
  await admin.close();
  bouncer = await PrivatePgBouncer.start(cluster.port, DATABASE, "transaction");
});

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  bouncer?.stop();
  await cluster?.destroy();
});

async function checksThrough(prepared: "0" | "1"): Promise<{ statuses: Record<number, number>; errors: string[]; log: string }> {
  // Migrations take a session-level lock: they run against the server directly, never through the bouncer.
  const node = new WeirNode(
    { DATABASE_URL: bouncer.url(DATABASE), WEIR_PG_PREPARED: prepared, WEIR_PG_SEND_TIMEOUTS: "0", WEIR_PG_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS), WEIR_SKIP_MIGRATIONS: "1", WEIR_PG_POOL_MAX: "16" },
    `prepared-${prepared}`,
  );
  nodes.push(node);
  await node.start();
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < CHECKS) {
        const i = next++;
        const res = await node.request("POST", "/api/v1/check", { serviceId: SERVICE, messageId: `m-${prepared}-${i % 300}`, payload: { v: i % 3 } }, bearer(token));
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  return { statuses, errors: node.internalErrors(), log: node.stderr.join("") };
}

describe("behind PgBouncer in transaction mode", () => {
  it("answers every check with WEIR_PG_PREPARED=0", async () => {
    const { statuses, errors, log } = await checksThrough("0");
    expect(statuses).toEqual({ 200: CHECKS });
    expect(errors).toEqual([]);
    expect(log).not.toMatch(/statement timeout/);
  });

  it("journals every one of those answers through the bouncer (partitions made, appends unnamed)", async () => {
    const admin = adminDb(databaseUrl);
    try {
      const journaled = async () => {
        const { rows } = await admin.pool.query("select count(*)::int as n from journal where subject = $1 and key like 'm-0-%'", [SERVICE]);
        return (rows[0] as { n: number }).n;
      };
      // The node writes its journal every second.
      for (let waited = 0; waited < 15_000 && (await journaled()) < CHECKS; waited += 250) await new Promise((r) => setTimeout(r, 250));
      expect(await journaled()).toBe(CHECKS);
    } finally {
      await admin.close();
    }
  });

  it("named prepared statements are what breaks there (the control)", async () => {
    const { statuses } = await checksThrough("1");
    expect(statuses[200] ?? 0).toBeLessThan(CHECKS);
  });

  it("keeps a server-side statement timeout with the README's settings, and refuses the timeouts sent at connect", async () => {
    const store = openStore(bouncer.url(DATABASE), { sendTimeouts: false, statementTimeoutMs: STATEMENT_TIMEOUT_MS });
    try {
      expect(await serverTimeoutProblem(store.pool, STATEMENT_TIMEOUT_MS)).toBeNull();
      const started = Date.now();
      // The server cancels it (57014) before the client's own timeout, one second later, would.
      await expect(store.pool.query("select pg_sleep(10)")).rejects.toMatchObject({ code: "57014" });
      expect(Date.now() - started).toBeLessThan(STATEMENT_TIMEOUT_MS + 900);
    } finally {
      await store.close();
    }
    const sending = openStore(bouncer.url(DATABASE), { sendTimeouts: true });
    try {
      await expect(sending.pool.query("select 1")).rejects.toThrow(/unsupported startup parameter/);
    } finally {
      await sending.close();
    }
  });
});
