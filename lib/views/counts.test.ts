import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { LIST_COUNT_CAP, loadAuditCount, loadGroupRecordCount } from "./counts";
import { loadIdempotencyBrowse } from "./idempotency";

let store: TestDatabase;

beforeAll(async () => {
  store = await createTestDatabase();
  // Scope "big": one key past the cap, all completed; scope "small": 3 in progress, 2 completed, 1 expired.
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, response_status, response_body, completed_at, expires_at)
    select 'big', 'k-' || g, '\\x00', 'completed', 200, '{}', now(), now() + interval '1 day' from generate_series(1, ${LIST_COUNT_CAP + 1}) g`);
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, locked_until, expires_at)
    select 'small', 'p-' || g, '\\x00', 'in_progress', now() + interval '1 hour', now() + interval '1 day' from generate_series(1, 3) g`);
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, response_status, response_body, completed_at, expires_at)
    values ('small', 'c-1', '\\x00', 'completed', 200, '{}', now(), now() + interval '1 day'), ('small', 'c-2', '\\x00', 'completed', 200, '{}', now(), now() + interval '1 day'),
      ('small', 'e-1', '\\x00', 'completed', 200, '{}', now(), now() - interval '1 minute')`);
  await store.db.execute(sql`insert into window_records (consumer_group, message_id) select 'many', 'm-' || g from generate_series(1, ${LIST_COUNT_CAP + 5}) g`);
  await store.db.execute(sql`insert into window_records (consumer_group, message_id) values ('few', 'a'), ('few', 'b')`);
  await store.db.execute(sql`insert into audit_log (actor, actor_role, action, target) values
    ('a@example.com', 'admin', 'service.update', 'service:x'), ('a@example.com', 'admin', 'group.ttl', 'group:y'), ('b@example.com', 'admin', 'group.ttl', 'group:z')`);
});

describe("list totals", () => {
  it("counts a scope's keys per state exactly, and stops at the cap", async () => {
    const totals = async (scope: string, status: string) => (await loadIdempotencyBrowse(store.db, { scope, status })).total;
    expect(await totals("small", "in_progress")).toEqual({ count: 3, capped: false });
    expect(await totals("small", "completed")).toEqual({ count: 2, capped: false });
    expect(await totals("small", "expired")).toEqual({ count: 1, capped: false });
    expect(await totals("big", "completed")).toEqual({ count: LIST_COUNT_CAP, capped: true });
    expect(await totals("big", "in_progress")).toEqual({ count: 0, capped: false });
    // An unknown scope has no list, so no total either (not "0 keys").
    expect(await totals("nope", "completed")).toBeNull();
  });

  it("counts a group's stored records up to the cap", async () => {
    expect(await loadGroupRecordCount(store.db, "few")).toEqual({ count: 2, capped: false });
    expect(await loadGroupRecordCount(store.db, "many")).toEqual({ count: LIST_COUNT_CAP, capped: true });
    expect(await loadGroupRecordCount(store.db, "none")).toEqual({ count: 0, capped: false });
  });

  it("counts audit entries by action and time, and not by actor or target (a scan of the whole log)", async () => {
    expect(await loadAuditCount(store.db, {})).toEqual({ count: 3, capped: false });
    expect(await loadAuditCount(store.db, { action: "group.ttl" })).toEqual({ count: 2, capped: false });
    expect(await loadAuditCount(store.db, { from: new Date(Date.now() + 60_000) })).toEqual({ count: 0, capped: false });
    expect(await loadAuditCount(store.db, { actor: "a@example.com" })).toBeNull();
    expect(await loadAuditCount(store.db, { targetPrefix: "group:" })).toBeNull();
  });
});
