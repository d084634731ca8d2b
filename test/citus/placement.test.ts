import { beforeAll, describe, expect, it } from "vitest";
import { distributeForCitus } from "@/db/citus";
import { insertAudit } from "@/db/queries/audit";
import { createTestDatabase, type TestDatabase } from "./citus-test-db";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const placements = async () => {
  const { rows } = await store.pool!.query<{ name: string; partmethod: string }>("select logicalrelid::text as name, partmethod from pg_dist_partition");
  return new Map(rows.map((row) => [row.name, row.partmethod]));
};

describe("where weir's tables live on Citus", () => {
  it("no table of weir's stays local to the coordinator; security_events is a reference table", async () => {
    const { rows } = await store.pool!.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and c.relname not like '\\_\\_%'`,
    );
    const placed = await placements();
    expect(rows.map((row) => row.name).filter((name) => !placed.has(name))).toEqual([]);
    expect(placed.get("security_events")).toBe("n");
    expect([placed.get("audit_log"), placed.get("auth_rate_limits")]).toEqual(["h", "h"]);
  });

  it("a database an older weir left with audit_log and auth_rate_limits as reference tables is moved, rows kept", async () => {
    await insertAudit(store.db, { actor: "a@weir.test", actorRole: "admin", action: "test.before", target: "x" });
    const client = await store.pool!.connect();
    try {
      await client.query("set citus.enable_unsafe_triggers to on");
      for (const table of ["audit_log", "auth_rate_limits"]) {
        await client.query("select undistribute_table($1)", [table]);
        await client.query("select create_reference_table($1)", [table]);
      }
      expect((await placements()).get("audit_log")).toBe("n");
      await distributeForCitus(client);
    } finally {
      client.release();
    }
    expect([(await placements()).get("audit_log"), (await placements()).get("auth_rate_limits")]).toEqual(["h", "h"]);
    const { rows } = await store.pool!.query("select action from audit_log where action = 'test.before'");
    expect(rows).toHaveLength(1);
    await expect(store.pool!.query("delete from audit_log")).rejects.toThrow(/append-only/);
  });
});
