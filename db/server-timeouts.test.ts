import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPool } from "@/db/client";
import { storeConfigFromEnv } from "@/db/config";
import { serverTimeoutProblem } from "@/db/server-timeouts";
import { withAdmin } from "@/test/pg-admin";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
});

const pools: { end(): Promise<void> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
  delete process.env.WEIR_PG_SEND_TIMEOUTS;
});

const poolWith = (sendTimeouts: boolean, statementTimeoutMs = 1500) => {
  const pool = createPool({ ...storeConfigFromEnv(), poolMax: 2, sendTimeouts, statementTimeoutMs }, store.url);
  pools.push(pool);
  return pool;
};

const setting = async (pool: ReturnType<typeof poolWith>) =>
  ((await pool.query("select setting from pg_settings where name = 'statement_timeout'")).rows[0] as { setting: string }).setting;

describe("the statement timeout (WEIR_PG_SEND_TIMEOUTS)", () => {
  it("is sent at connect by default, and not at all with 0, for a pooler that refuses it", async () => {
    expect(storeConfigFromEnv().sendTimeouts).toBe(true);
    process.env.WEIR_PG_SEND_TIMEOUTS = "0";
    expect(storeConfigFromEnv().sendTimeouts).toBe(false);
    process.env.WEIR_PG_SEND_TIMEOUTS = "no";
    expect(() => storeConfigFromEnv()).toThrow(/WEIR_PG_SEND_TIMEOUTS must be 0 or 1/);
    delete process.env.WEIR_PG_SEND_TIMEOUTS;
    expect(await setting(poolWith(true))).toBe("1500");
    expect(await setting(poolWith(false))).toBe("0");
  });

  it("goes with no parallel plans, which weir's small statements wait for more than they gain", async () => {
    const parallel = async (pool: ReturnType<typeof poolWith>) =>
      ((await pool.query("show max_parallel_workers_per_gather")).rows[0] as { max_parallel_workers_per_gather: string }).max_parallel_workers_per_gather;
    expect(await parallel(poolWith(true))).toBe("0");
    // Behind a pooler the role carries it (db/roles/production-grants.sql); here the server's default.
    expect(await parallel(poolWith(false))).not.toBe("0");
  });

  it("when not sent, comes from the role, and weir says so at the first connection when the role has none", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const bare = poolWith(false);
    await bare.query("select 1");
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringMatching(/no statement timeout .* run ALTER ROLE "postgres" SET statement_timeout = '1500ms'/)));
    await bare.query("select 1");
    expect(warn).toHaveBeenCalledTimes(1);

    await withAdmin((admin) => admin.query(`alter role postgres in database "${store.name}" set statement_timeout = '1500ms'`));
    const onRole = poolWith(false);
    expect(await serverTimeoutProblem(onRole, 1500)).toBeNull();
    expect(await serverTimeoutProblem(onRole, 1000)).toMatch(/longer than WEIR_PG_STATEMENT_TIMEOUT_MS/);
    await expect(onRole.query("select pg_sleep(5)")).rejects.toMatchObject({ code: "57014" });
  });
});
