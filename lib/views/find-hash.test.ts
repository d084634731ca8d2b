import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { HASH_SCAN_BUDGET, REQUEST_HASH_SCAN } from "@/db/queries/console-find-hash";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { findAnything } from "./find";

let store: TestDatabase;
let service: string;
const HASH = "ab".repeat(32);
const OTHER = "cd".repeat(32);

beforeAll(async () => {
  store = await createTestDatabase();
  service = await createService(store.db);
  // Two recent keys hold HASH; an old one holds it too but lies past the newest-first slice.
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
    select ${service}, 'filler-' || g, decode(${OTHER}, 'hex'), 1, now() - interval '1 day', now() - interval '1 hour'
    from generate_series(1, ${HASH_SCAN_BUDGET + 10}) g`);
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed) values
    (${service}, 'order-1', decode(${HASH}, 'hex'), 2, now(), now()), (${service}, 'order-2', decode(${HASH}, 'hex'), 1, now(), now()),
    (${service}, 'order-old', decode(${HASH}, 'hex'), 1, now() - interval '30 days', now() - interval '30 days')`);
  await store.db.execute(sql`insert into idempotency_keys (scope, key, request_hash, status, locked_until, expires_at) values
    ('pay', 'req-1', decode(${HASH}, 'hex'), 'in_progress', now() + interval '1 hour', now() + interval '1 day')`);
});

describe("find by hash", () => {
  it("finds recent keys holding a stored hash and idempotency keys with that request hash, in either case", async () => {
    const found = await findAnything(store.db, HASH.toUpperCase());
    expect(found.matches.map((m) => [m.by, m.kind, m.id])).toEqual([
      ["hash", "key", "order-1"],
      ["hash", "key", "order-2"],
      ["hash", "idempotency", "req-1"],
    ]);
    expect(found.matches[0]!.href).toBe(`/services/${service}/key?id=order-1`);
    // Bounded: the old key past the newest-first slice is not read, and the page says how far it looked.
    expect(found.hashScan).toEqual({ keysPerService: HASH_SCAN_BUDGET, services: 1, idempotencyKeys: REQUEST_HASH_SCAN });
  });

  it("looks up only 64 hex digits as a hash", async () => {
    expect((await findAnything(store.db, HASH.slice(1))).hashScan).toBeNull();
    expect((await findAnything(store.db, `${HASH.slice(1)}g`)).matches).toEqual([]);
    expect((await findAnything(store.db, "ef".repeat(32))).matches).toEqual([]);
  });
});
