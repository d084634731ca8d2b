import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkMany } from "@/lib/dedup/last-seen/check";
import { createService } from "@/test/factories";
import { cliTestDatabase } from "./weir.fixture";

const { store, weir, count } = cliTestDatabase();

describe("weir keys revert", () => {
  it("takes back the latest change, refuses another version with exit 4 naming the current one, and a key with no state", async () => {
    const serviceId = await createService(store().db, {}, "cli-revert");
    const [first] = await checkMany(store().db, [{ serviceId, messageId: "K-1", payload: { v: 1 } }]);
    await checkMany(store().db, [{ serviceId, messageId: "K-1", payload: { v: 2 } }, { serviceId, messageId: "K-2", payload: { v: 1 } }]);
    const revert = (messageId: string, version: string, ...more: string[]) => weir(["keys", "revert", "--service", serviceId, "--message", messageId, "--key-version", version, ...more]);

    const [stale, missing, unknown, zero] = await Promise.all([
      revert("K-1", "1"),
      revert("K-404", "1"),
      weir(["keys", "revert", "--service", "no-such-service", "--message", "K-1", "--key-version", "1"]),
      revert("K-1", "0"),
    ]);
    expect(stale.code).toBe(4);
    expect(stale.stderr).toContain("key K-1 is at version 2, not 1");
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("key K-404 of service");
    expect(missing.stderr).toContain("has no state");
    expect(unknown.code).toBe(4);
    expect(zero.code).toBe(2);
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${serviceId} and version = 2`)).toBe(1);

    const changed = await revert("K-1", "2", "--actor", "ops-bob");
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`reverted v2 of K-1 (service ${serviceId}): v1 is stored again (hash ${first!.hash})`);
    const [row] = (await store().db.execute<{ version: number; hash: string }>(
      sql`select version::int as version, encode(hash, 'hex') as hash from last_seen where service_id = ${serviceId} and message_id = 'K-1'`,
    )).rows;
    expect(row).toEqual({ version: 1, hash: first!.hash });
    expect(await count(sql`select count(*)::int as n from audit_log where actor = 'cli:ops-bob' and action = 'last_seen.revert' and target = ${`service:${serviceId}`}`)).toBe(1);

    const fresh = await revert("K-2", "1", "--json");
    expect(JSON.parse(fresh.stdout)).toEqual({ serviceId, messageId: "K-2", revertedVersion: 1, version: null, hash: null });
    expect(await count(sql`select count(*)::int as n from last_seen where service_id = ${serviceId} and message_id = 'K-2'`)).toBe(0);
    const [again] = await checkMany(store().db, [{ serviceId, messageId: "K-2", payload: { v: 1 } }]);
    expect(again).toMatchObject({ decision: "new", version: 1 });
  }, 120_000);
});
