import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase({ poolMax: 2 });
});

describe("last_seen's storage settings (migration 0019)", () => {
  it("vacuums at 2 % dead rows and analyzes at 5 %, not PostgreSQL's 20 % and 10 %", async () => {
    const { rows } = await store.pool!.query<{ options: string[] }>("select reloptions as options from pg_class where oid = 'public.last_seen'::regclass");
    expect(rows[0]!.options).toEqual(
      expect.arrayContaining(["autovacuum_vacuum_scale_factor=0.02", "autovacuum_vacuum_insert_scale_factor=0.02", "autovacuum_analyze_scale_factor=0.05"]),
    );
  });
});
