import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadIdempotencyBrowse } from "./idempotency";

let store: TestDatabase;

/** 23 live in-progress keys in scope "pay", and one completed key that the in-progress list must skip. */
beforeAll(async () => {
  store = await createTestDatabase();
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, locked_until, expires_at)
    select 'pay', 'k-' || lpad(g::text, 2, '0'), '\\x00', 'in_progress', now() + interval '1 hour', now() + interval '1 day'
    from generate_series(1, 23) g`);
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, response_status, response_body, completed_at, expires_at)
    values ('pay', 'k-10a', '\\x00', 'completed', 200, '{}', now(), now() + interval '1 day')`);
});

describe("idempotency key browser", () => {
  it("pages forward and back through the same pages", async () => {
    const forward: string[][] = [];
    let page = await loadIdempotencyBrowse(store.db, { scope: "pay" }, 5);
    expect(page.prevCursor).toBeNull();
    forward.push(page.keys.map((k) => k.key));
    while (page.nextCursor) {
      page = await loadIdempotencyBrowse(store.db, { scope: "pay", after: page.nextCursor }, 5);
      forward.push(page.keys.map((k) => k.key));
    }
    expect(forward.flat()).toHaveLength(23);
    const backward = [forward.at(-1)!];
    while (page.prevCursor) {
      page = await loadIdempotencyBrowse(store.db, { scope: "pay", before: page.prevCursor }, 5);
      backward.unshift(page.keys.map((k) => k.key));
    }
    expect(backward).toEqual(forward);
  });

  it("keeps a refused or unknown scope as typed, with no keys and no 'null'", async () => {
    const bad = await loadIdempotencyBrowse(store.db, { scope: "%%%" });
    expect(bad).toMatchObject({ rawScope: "%%%", scope: null, known: false, keys: [] });
    expect(bad.fieldErrors.scope?.length).toBeGreaterThan(0);
    const unknown = await loadIdempotencyBrowse(store.db, { scope: "nope" });
    expect(unknown).toMatchObject({ scope: "nope", known: false, keys: [] });
  });

  it("keeps a valid scope chosen when the status or a cursor is refused", async () => {
    const status = await loadIdempotencyBrowse(store.db, { scope: "pay", status: "bogus" });
    expect(status).toMatchObject({ scope: "pay", known: true, keys: [] });
    expect(status.fieldErrors.status?.length).toBeGreaterThan(0);
    const cursor = await loadIdempotencyBrowse(store.db, { scope: "pay", after: "x".repeat(3000) });
    expect(cursor).toMatchObject({ scope: "pay", known: true, keys: [] });
    expect(cursor.fieldErrors.after?.length).toBeGreaterThan(0);
  });
});
