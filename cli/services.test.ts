import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { cliTestDatabase } from "./weir.fixture";

const { store, weir, count } = cliTestDatabase();

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("weir services set", () => {
  it("saves nothing over a save made while it ran: exit 4, the other save kept", async () => {
    const id = await createService(store().db, { historyDepth: 1 }, "cli-race");
    const other = new pg.Client({ connectionString: store().url });
    await other.connect();
    try {
      // Hold the service's row so the command has read the settings and waits to save them.
      await other.query("begin");
      await other.query("select 1 from services where id = $1 for update", [id]);
      const running = weir(["services", "set", id, "--history-depth", "5"]);
      await until(async () => (await count(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) > 0);
      await other.query("update services set display_name = 'theirs', updated_at = clock_timestamp() where id = $1", [id]);
      await other.query("commit");
      const run = await running;
      expect(run.code).toBe(4);
      expect(run.stderr).toContain(`nothing was saved: the settings of ${id} were changed by another save while this command ran`);
    } finally {
      await other.end();
    }
    const saved = sql`select display_name as name, history_depth as depth from services where id = ${id}`;
    expect((await store().db.execute(saved)).rows).toEqual([{ name: "theirs", depth: 1 }]);
    expect(await count(sql`select count(*)::int as n from audit_log where target = ${`service:${id}`} and actor like 'cli:%'`)).toBe(0);

    const again = await weir(["services", "set", id, "--history-depth", "5"]);
    expect(again.code, again.stderr).toBe(0);
    expect((await store().db.execute(saved)).rows).toEqual([{ name: "theirs", depth: 5 }]);
  }, 120_000);
});
