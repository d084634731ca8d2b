import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createService } from "@/test/factories";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { loadKeyBrowser } from "./key-browser";

let store: TestDatabase;
let serviceId: string;
const BASE = Date.parse("2025-03-01T12:00:00Z");

/** 130 keys: groups of 10 share a last_changed (ties), and two keys differ by one microsecond. */
beforeAll(async () => {
  store = await createTestDatabase();
  serviceId = await createService(store.db);
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed)
    select ${serviceId}, 'k-' || lpad(g::text, 3, '0'), sha256(g::text::bytea), 1 + g % 4,
      ${new Date(BASE).toISOString()}::timestamptz, ${new Date(BASE).toISOString()}::timestamptz + make_interval(mins => g / 10)
    from generate_series(1, 126) g`);
  await store.db.execute(sql`insert into last_seen (service_id, message_id, hash, version, first_seen, last_changed) values
    (${serviceId}, 'a%1', '\\x00', 1, now(), '2025-03-01T11:00:00.000001Z'),
    (${serviceId}, 'a_2', '\\x00', 1, now(), '2025-03-01T11:00:00.000002Z'),
    (${serviceId}, 'ab', '\\x00', 1, now(), '2025-03-01T11:00:00.000001Z'),
    (${serviceId}, 'é-1', '\\x00', 9, now(), '2025-03-01T11:00:00.000003Z')`);
});

async function walk(params: Record<string, string>, pageSize: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await loadKeyBrowser(store.db, serviceId, { ...params, ...(after ? { after } : {}) }, pageSize);
    expect(page?.fieldErrors).toEqual({});
    seen.push(...page!.rows.map((r) => r.messageId));
    if (!page!.nextCursor) return seen;
    after = page!.nextCursor;
  }
  throw new Error("pagination did not end");
}

const expected = async (order: string, where = "true") =>
  ((await store.db.execute(sql.raw(`select message_id from last_seen where service_id = '${serviceId}' and ${where} order by ${order}`))).rows as {
    message_id: string;
  }[]).map((r) => r.message_id);

describe("key browser keyset pagination", () => {
  it("walks every key once, newest change first, ties by message id, microseconds kept", async () => {
    const all = await walk({}, 7);
    expect(all).toHaveLength(130);
    expect(new Set(all).size).toBe(130);
    expect(all).toEqual(await expected("last_changed desc, message_id asc"));
    expect(all.slice(-4)).toEqual(["é-1", "a_2", "a%1", "ab"]);
  });

  it("walks oldest first just as well", async () => {
    expect(await walk({ sort: "asc" }, 9)).toEqual(await expected("last_changed asc, message_id desc"));
  });

  it("filters by a literal prefix (LIKE wildcards are plain characters), time range and version count", async () => {
    expect(await walk({ prefix: "a%" }, 5)).toEqual(["a%1"]);
    expect(await walk({ prefix: "a_" }, 5)).toEqual(["a_2"]);
    expect(await walk({ prefix: "é" }, 5)).toEqual(["é-1"]);
    expect(await walk({ prefix: "k-12" }, 2)).toEqual(["k-120", "k-121", "k-122", "k-123", "k-124", "k-125", "k-126"]);
    const ranged = await walk({ from: "2025-03-01T12:01", to: "2025-03-01T12:03" }, 4);
    const inRange = "last_changed >= '2025-03-01T12:01Z' and last_changed < '2025-03-01T12:03Z'";
    expect(ranged).toEqual(await expected("last_changed desc, message_id asc", inRange));
    expect(ranged).toHaveLength(20);
    const versions = await walk({ minVersion: "4" }, 10);
    expect(versions).toEqual([...(await walk({}, 50))].filter((id) => id === "é-1" || (id.startsWith("k-") && Number(id.slice(2)) % 4 === 3)));
  });

  it("reports bad filters as field errors and ignores a tampered cursor", async () => {
    const bad = await loadKeyBrowser(store.db, serviceId, { from: "yesterday", minVersion: "-1" });
    expect(Object.keys(bad!.fieldErrors).sort()).toEqual(["from", "minVersion"]);
    const tampered = await loadKeyBrowser(store.db, serviceId, { after: Buffer.from('["drop table",""]').toString("base64url") });
    expect(tampered!.rows).toHaveLength(50);
    expect(await loadKeyBrowser(store.db, "no-such-service", {})).toBeNull();
  });

  it("pages back with Previous through the same pages, both orders, and counts the matches", async () => {
    for (const sort of ["desc", "asc"]) {
      const forward: string[][] = [];
      let page = await loadKeyBrowser(store.db, serviceId, { sort }, 8);
      expect(page!.prevCursor).toBeNull();
      forward.push(page!.rows.map((r) => r.messageId));
      while (page!.nextCursor) {
        page = await loadKeyBrowser(store.db, serviceId, { sort, after: page!.nextCursor }, 8);
        forward.push(page!.rows.map((r) => r.messageId));
      }
      const backward: string[][] = [forward.at(-1)!];
      while (page!.prevCursor) {
        page = await loadKeyBrowser(store.db, serviceId, { sort, before: page!.prevCursor }, 8);
        backward.unshift(page!.rows.map((r) => r.messageId));
        expect(page!.nextCursor).not.toBeNull();
      }
      expect(backward).toEqual(forward);
    }
    const all = await loadKeyBrowser(store.db, serviceId, {}, 8);
    expect(all!.total).toEqual({ count: 130, capped: false });
    expect((await loadKeyBrowser(store.db, serviceId, { prefix: "k-12" }, 2))!.total).toEqual({ count: 7, capped: false });
  });

  it("keeps a refused filter's text and lists nothing rather than claiming the service is empty", async () => {
    const bad = await loadKeyBrowser(store.db, serviceId, { minVersion: "abc", prefix: "k-" });
    expect(bad!.raw).toEqual({ minVersion: "abc", prefix: "k-" });
    expect(bad!.filters).toBeNull();
    expect(bad!.total).toBeNull();
  });
});
