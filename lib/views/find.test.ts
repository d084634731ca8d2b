import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { findAnything } from "./find";

let store: TestDatabase;
let serviceA: string;
let serviceB: string;

beforeAll(async () => {
  store = await createTestDatabase();
  serviceA = await createService(store.db);
  serviceB = await createService(store.db);
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed) values
    (${serviceA}, 'order-7', '\\x00', 3, now(), now()), (${serviceB}, 'order-7', '\\x01', 1, now(), now()), (${serviceB}, 'order-8', '\\x01', 1, now(), now())`);
  await store.db.execute(sql`insert into window_records (consumer_group, message_id, claimed_at) values ('billing', 'order-7', now()), ('audit', 'order-9', now())`);
});

describe("find anything", () => {
  it("finds an exact id in every service and group, and nothing for a prefix", async () => {
    const found = await findAnything(store.db, "order-7");
    // Matches come by kind, then owner: the two random service ids sort either way.
    const keys: [string, string, number][] = [["key", serviceA, 3], ["key", serviceB, 1]];
    keys.sort((a, b) => (a[1] < b[1] ? -1 : 1));
    expect(found.matches.map((m) => [m.kind, m.owner, m.version])).toEqual([["claim", "billing", null], ...keys]);
    expect(found.matches.find((m) => m.owner === serviceA)!.href).toBe(`/services/${serviceA}/key?id=order-7`);
    expect(found.matches.find((m) => m.kind === "claim")!.href).toBe("/groups/billing?claim=order-7");
    expect((await findAnything(store.db, "order-")).matches).toEqual([]);
    expect((await findAnything(store.db, "42")).resetHref).toBe("/reset/42");
  });
});
