import { mkdtemp, readFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { checkMany } from "@/lib/dedup/last-seen/check";
import { forgetToken } from "@/lib/auth/tokens/token-cache";
import { hashTokenSecret } from "@/lib/auth/tokens/token-secret";
import { createTestToken } from "@/test/token.fixture";
import { startTestApi } from "@/test/api-server";
import { databaseUrl, withAdmin } from "@/test/pg-admin";
import { describeError } from "./errors";
import { runWeir } from "./weir.fixture";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;
/** One service per test that reads or changes keys, so the tests can run side by side. */
let exported: string;
let resetting: string;

const weir = (args: string[], env: Record<string, string> = {}, input?: string) => runWeir(store.url, args, env, input);

const count = async (query: ReturnType<typeof sql>) => Number((await store.db.execute<{ n: number }>(query)).rows[0]!.n);

beforeAll(async () => {
  store = await createTestDatabase();
  for (const prefix of ["cli-export", "cli-reset"]) {
    const serviceId = await createService(store.db, {}, prefix);
    await checkMany(store.db, Array.from({ length: 150 }, (_, i) => ({ serviceId, messageId: `K-${String(i).padStart(3, "0")}`, payload: { i } })));
    if (prefix === "cli-export") exported = serviceId;
    else resetting = serviceId;
  }
});

describe("weir CLI", () => {
  it("prints help with every command, and exits 2 on bad usage", async () => {
    const help = await weir(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["migrate", "services", "groups", "keys", "claims", "reset", "replay-reset", "erase", "retention", "export", "cleanup", "rollups", "users", "tokens", "simulate"]) expect(help.stdout).toContain(command);
    expect(help.stdout).toContain("Exit codes");
    const unknown = await weir(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command");
    expect((await weir(["export"])).stderr).toContain("--service");
  });

  it("migrates, and says so; an unreachable database exits 3", async () => {
    const run = await weir(["migrate"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/schema up to date \(\d+ migrations\)/);
    expect(run.stdout).not.toContain("password");
    const down = await weir(["migrate", "--database-url", "postgres://postgres@127.0.0.1:1/nowhere"], { WEIR_PG_CONNECT_TIMEOUT_MS: "500" });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain("the database is unreachable");
  });

  it("exports a service's keys as NDJSON and CSV", async () => {
    const ndjson = await weir(["export", "--service", exported, "--prefix", "K-00"]);
    expect(ndjson.code).toBe(0);
    const lines = ndjson.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(10);
    lines.sort((a, b) => a.messageId.localeCompare(b.messageId));
    expect(lines[0]).toMatchObject({ serviceId: exported, messageId: "K-000", version: 1, hash: expect.stringMatching(/^[0-9a-f]{64}$/), hashVersion: 1 });
    expect(ndjson.stderr).toContain("exported 10 keys");

    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "weir-export-")), "keys.csv");
    const csv = await weir(["export", "--service", exported, "--format", "csv", "-o", out, "--page-size", "40"]);
    expect(csv.code).toBe(0);
    const rows = (await readFile(out, "utf8")).split("\r\n").filter(Boolean);
    expect(rows[0]).toBe('"service_id","message_id","version","hash","hash_version","first_seen","last_changed"');
    expect(rows).toHaveLength(151);
    expect(new Set(rows).size).toBe(151);

    const missing = await weir(["export", "--service", "no-such-service"]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("not registered");
  });

  it("writes message ids a spreadsheet would run as formulas as plain text in a CSV export", async () => {
    const serviceId = await createService(store.db, {}, "cli-csv");
    const hostile = ["=HYPERLINK(\"http://evil.invalid\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd", "plain, \"quoted\""];
    await checkMany(store.db, hostile.map((messageId) => ({ serviceId, messageId, payload: 1 })));
    const run = await weir(["export", "--service", serviceId, "--format", "csv"]);
    expect(run.code).toBe(0);
    for (const cell of ['"\'=HYPERLINK(""http://evil.invalid"")"', '"\'+1+1"', '"\'-2+3"', '"\'@SUM(A1)"', '"\'\tcmd"', '"\'\rcmd"', '"plain, ""quoted"""']) {
      expect(run.stdout).toContain(`"${serviceId}",${cell},"1"`);
    }
    expect(run.stdout).not.toMatch(/(^|,)"[=+\-@\t\r]/m);
  });

  it("resets like the console: dry run, reason required, confirmation, audit, undo", async () => {
    const dry = await weir(["reset", "--service", resetting, "--key", "K-001", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would reset 1 keys");
    const noReason = await weir(["reset", "--service", resetting, "--key", "K-001"]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason is required");
    const big = await weir(["reset", "--service", resetting, "--all", "--reason", "replay"]);
    expect(big.code).toBe(4);
    expect(big.stderr).toContain(`--confirm ${resetting}`);

    const one = await weir(["reset", "--service", resetting, "--key", "K-001", "--key", "K-002", "--reason", "replay INC-1", "--actor", "ops-alice"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/reset #\d+ done: 2 of 2 keys/);
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${resetting} and message_id in ('K-001', 'K-002')`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from audit_log where actor = 'cli:ops-alice' and action = 'reset.start' and reason = 'replay INC-1'`)).toBe(1);

    const batchId = /reset #(\d+)/.exec(one.stdout)![1]!;
    const undo = await weir(["undo-reset", batchId, "--reason", "wrong keys"]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain("2 keys restored");
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${resetting}`)).toBe(150);

    const all = await weir(["reset", "--service", resetting, "--all", "--reason", "reindex", "--confirm", resetting]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("150 of 150 keys");
  });

  it("runs cleanup passes", async () => {
    await store.db.execute(sql`insert into consumer_groups (id, ttl_seconds, grace_seconds) values ('cli-cleanup', 1, 0)`);
    await store.db.execute(sql`insert into window_records (consumer_group, message_id, claimed_at) select 'cli-cleanup', 'm-' || g, now() - interval '1 hour' from generate_series(1, 120) g`);
    const run = await weir(["cleanup", "--batch-size", "50"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/removed \d+ rows \(\d+ window records, \d+ idempotency keys\)/);
    expect(Number(/\((\d+) window records/.exec(run.stdout)![1])).toBeGreaterThanOrEqual(120);
    expect(await count(sql`select count(*)::int as n from window_records where consumer_group = 'cli-cleanup'`)).toBe(0);
    expect((await weir(["cleanup", "--batch-size", "0"])).code).toBe(2);
  });

  it("rebuilds the stats rollups from the minutes, each kind's totals with them", async () => {
    // Minutes of two services 5 hours ago, and an hour rolled up before them without their counts.
    await store.db.execute(sql`insert into stats_minute (subject_kind, subject, bucket, checks, duplicates)
      select 'service', s, date_trunc('hour', now()) - interval '5 hours' + make_interval(mins => m), 3, 1
      from unnest(array['cli-roll-a', 'cli-roll-b']) s, generate_series(0, 59) m`);
    await store.db.execute(sql`insert into stats_rollup (name, rolled_until) values ('stats_hour', date_trunc('hour', now()) - interval '1 hour')
      on conflict (name) do update set rolled_until = excluded.rolled_until`);
    const hour = sql`date_trunc('hour', now()) - interval '5 hours'`;
    const totals = () => count(sql`select coalesce(sum(checks), 0)::int as n from stats_hour where subject_kind = 'all-service' and bucket = ${hour}`);
    const before = await totals();
    const run = await weir(["rollups", "rebuild"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/rebuilt the stats rollups in \d+ ms: stats_day to .+, stats_hour to .+, stats_quarter to /);
    expect(await count(sql`select sum(checks)::int as n from stats_hour where subject like 'cli-roll-%' and bucket = ${hour}`)).toBe(2 * 60 * 3);
    expect((await totals()) - before).toBe(2 * 60 * 3);
  });

  it("registers a service and changes what it hashes, keeping what was not given", async () => {
    const id = `cli-svc-${Date.now()}`;
    const created = await weir(["services", "set", id, "--include", "/order,/customer/id", "--history-depth", "3", "--actor", "root"]);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`registered ${id}: hash settings v1, included: /customer/id, /order, ignored: none, normalises: empty_containers, nulls, numbers, history 3`);
    await checkMany(store.db, [{ serviceId: id, messageId: "o-1", payload: { order: { id: 1 }, sentAt: "t1" } }]);

    const changed = await weir(["services", "set", id, "--ignore", "/order/updatedAt", "--json"]);
    expect(JSON.parse(changed.stdout)).toMatchObject({ hashVersion: 2, includedPaths: ["/customer/id", "/order"], ignoredPaths: ["/order/updatedAt"], historyDepth: 3 });
    const [replay] = await checkMany(store.db, [{ serviceId: id, messageId: "o-1", payload: { order: { id: 1 }, sentAt: "t2" } }]);
    // This process cached the service's v1 settings before the CLI changed them: still a duplicate.
    expect(replay).toMatchObject({ decision: "duplicate", version: 1 });

    const listed = await weir(["services", "list"]);
    expect(listed.stdout).toContain(`${id}\thash settings v2\tincluded: /customer/id, /order\tignored: /order/updatedAt\tnormalises: empty_containers, nulls, numbers\thistory 3`);
    expect((await weir(["services", "set", id, "--include", "order"])).code).toBe(2);
    expect((await weir(["services", "set", id, "--include", "/a", "--clear-included"])).code).toBe(2);
    const audit = await count(sql`select count(*)::int as n from audit_log where target = ${`service:${id}`}`);
    expect(audit).toBe(2);
  });

  it("creates users and tokens through the access-control verbs", async () => {
    const user = await weir(["users", "create", "--email", "Oncall@Example.com", "--role", "operator", "--actor", "root"]);
    expect(user.code).toBe(0);
    expect(user.stdout).toContain("created operator oncall@example.com");
    expect(user.stdout).toMatch(/password \(shown once\): \S{20,}/);
    const again = await weir(["users", "create", "--email", "oncall@example.com", "--password-stdin"], {}, "correct horse battery staple\n");
    expect(again.code).toBe(4);
    expect(again.stderr).toContain("already exists");

    const token = await weir(["tokens", "create", "--name", "billing prod", "--service", exported, "--reason", "new adapter"]);
    expect(token.code).toBe(0);
    const secret = token.stdout.trim();
    expect(token.stderr).toContain(`services [${exported}]`);
    const api = await startTestApi(async () => store);
    const allowed = await api.request("POST", "/api/v1/check", { serviceId: exported, messageId: "via-token", payload: 1 }, { authorization: `Bearer ${secret}` });
    expect(allowed.status).toBe(200);
    const other = await api.request("POST", "/api/v1/check", { serviceId: "someone-else", messageId: "x", payload: 1 }, { authorization: `Bearer ${secret}` });
    expect(other.status).toBe(403);

    // Revoking is audited with why: no reason, or a blank one, changes nothing.
    const id = /token (tok_\S+)/.exec(token.stderr)![1]!;
    expect((await weir(["tokens", "revoke", id])).code).toBe(2);
    const blank = await weir(["tokens", "revoke", id, "--reason", "   "]);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain("(reason)");
    const stillValid = await api.request("POST", "/api/v1/check", { serviceId: exported, messageId: "via-token", payload: 1 }, { authorization: `Bearer ${secret}` });
    expect(stillValid.status).toBe(200);
    const revoked = await weir(["tokens", "revoke", id, "--reason", "leaked in a CI log", "--actor", "root"]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stderr).toContain(`revoked token ${id}`);
    expect(await count(sql`select count(*)::int as n from api_tokens where id = ${id} and revoked_at is not null`)).toBe(1);
    // This test's API is another node: it drops the token once its cached lookup ends (CACHE_MS).
    forgetToken(hashTokenSecret(secret));
    const refused = await api.request("POST", "/api/v1/check", { serviceId: exported, messageId: "x", payload: 1 }, { authorization: `Bearer ${secret}` });
    expect(refused.status).toBe(401);
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'token.revoke' and reason = 'leaked in a CI log' and actor like '%root%'`)).toBe(1);
  });

  it("simulates realistic traffic through a running weir", async () => {
    const api = await startTestApi(async () => store);
    const token = await createTestToken(store.db);
    const run = await weir(["simulate", "--url", api.url, "--token", token, "--orders", "30", "--rounds", "3", "--redelivery", "0.2"]);
    expect(run.code).toBe(0);
    const decisions = /checks: (\d+) \(new (\d+), changed (\d+), duplicate (\d+)\)/.exec(run.stdout);
    expect(decisions).not.toBeNull();
    expect(Number(decisions![2])).toBe(30 * 4);
    expect(Number(decisions![3])).toBeGreaterThan(0);
    expect(Number(decisions![4])).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/claims: \d+ \(new 90, duplicate [1-9]\d*/);
    expect(await count(sql`select count(*)::int as n from services where id = 'orders-projection'`)).toBe(1);

    expect((await weir(["simulate", "--url", api.url], { WEIR_TOKEN: "" })).code).toBe(2);
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const down = await weir(["simulate", "--url", `http://127.0.0.1:${port}`, "--token", token, "--orders", "1", "--rounds", "1", "--retries", "1"]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain("cannot reach weir");
    expect(down.stderr).not.toContain("outcome is unknown");
  });
});

describe("weir CLI on a database that was never migrated", () => {
  const name = `${inject("runPrefix")}_cli_empty_${Date.now().toString(36)}`;
  const url = databaseUrl(name);
  // host:port/dbname of the test server, which npm test may have started on any port.
  const where = `${new URL(url).host}/${name}`;
  const notMigrated = `weir: the database at ${where} is not migrated: run \`weir migrate\``;
  const empty = (args: string[], input?: string) => weir(args, { DATABASE_URL: url }, input);

  beforeAll(async () => {
    await withAdmin((admin) => admin.query(`create database "${name}"`));
  });
  afterAll(async () => {
    await withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
  });

  it("says so with exit 3 for every command, and prints no SQL, parameters or secrets", async () => {
    const commands = [
      ["tokens", "create", "--name", "billing prod", "--all", "--reason", "new adapter"],
      ["users", "create", "--email", "oncall@example.com", "--role", "operator"],
      ["export", "--service", "orders"],
      ["reset", "--service", "orders", "--key", "K-1", "--reason", "replay"],
      ["reset", "--group", "billing", "--all", "--reason", "replay", "--dry-run"],
      ["undo-reset", "1", "--reason", "oops"],
      ["cleanup"],
      ["keys", "revert", "--service", "orders", "--message", "K-1", "--key-version", "2"],
      ["claims", "release", "--group", "billing", "--message", "K-1"],
      ["groups", "list"],
      ["groups", "set", "billing", "--ttl", "60", "--reason", "shorter"],
    ];
    // Independent commands, run side by side; eleven process starts still need more than the default timeout on a busy machine.
    const runs = await Promise.all(commands.map((args) => empty(args)));
    for (const [i, args] of commands.entries()) {
      const run = runs[i]!;
      const label = `weir ${args.join(" ")}: ${run.stderr}`;
      expect(run.code, label).toBe(3);
      expect(run.stderr.trim(), label).toBe(notMigrated);
      for (const leak of ["Failed query", "insert into", "select ", "params", "password"]) expect(run.stdout + run.stderr, label).not.toContain(leak);
      expect((run.stdout + run.stderr).replaceAll(name, ""), label).not.toMatch(/weir_[A-Za-z0-9_-]{20,}|[0-9a-f]{64}/); // a token secret or its hash
    }
  }, 120_000);

  it("works once `weir migrate` has run, and names an older or damaged schema the same way", async () => {
    expect((await empty(["migrate"])).code).toBe(0);
    const token = await empty(["tokens", "create", "--name", "after migrate", "--all"]);
    expect(token.code, token.stderr).toBe(0);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const execute = async (statement: string) => void (await admin.query(statement));
    try {
      await execute("drop table api_tokens cascade");
      const damaged = await empty(["tokens", "create", "--name", "no table", "--all"]);
      expect(damaged.code).toBe(3);
      expect(damaged.stderr.trim()).toBe(notMigrated);
      await execute("delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)");
    } finally {
      await admin.end();
    }
    const older = await empty(["tokens", "create", "--name", "older schema", "--all"]);
    expect(older.code).toBe(3);
    expect(older.stderr).toMatch(new RegExp(`the database at ${where.replace(/[.]/g, "\\.")} is not migrated \\(\\d+ of \\d+ migrations applied\\): run \`weir migrate\``));
  });

  it("names a database that does not exist, with exit 3", async () => {
    const run = await weir(["export", "--service", "orders"], { DATABASE_URL: databaseUrl(`${name}_missing`) });
    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toBe(`weir: the database at ${where}_missing does not exist: create it, then run \`weir migrate\``);
  });
});

describe("describeError", () => {
  it("names driver errors by SQLSTATE only, never with the statement or its parameters", () => {
    const statement = 'Failed query: insert into "api_tokens" ("id", "hash") values ($1, $2)\nparams: tok_1,5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8';
    const wrapped = Object.assign(new Error(statement), { cause: Object.assign(new Error('duplicate key value violates unique constraint "api_tokens_pkey"'), { code: "23505" }) });
    expect(describeError(wrapped)).toEqual({ message: "the database refused the command (SQLSTATE 23505)", exitCode: 1 });
    expect(describeError(new Error(statement)).message).toBe("unexpected error: a database statement failed");
    const down = Object.assign(new Error(statement), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }) });
    expect(describeError(down)).toMatchObject({ exitCode: 3, message: expect.stringContaining("unreachable: connect ECONNREFUSED 127.0.0.1:1") });
    expect(describeError(down).message).not.toContain("insert");
  });
});

