import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimMany } from "@/lib/dedup/window/claim";
import { uniqueGroup } from "@/lib/dedup/window/test-helpers";
import { cliTestDatabase } from "./weir.fixture";

const { store, weir, count } = cliTestDatabase();

describe("weir claims release", () => {
  it("releases the claim it names, refuses one claimed again with exit 4, and releasing nothing is no error", async () => {
    const group = uniqueGroup("cli-release");
    const [claimed] = await claimMany(store().db, [{ consumerGroup: group, messageId: "evt-1" }]);
    const at = claimed!.windowStartedAt!;
    const release = (...more: string[]) => weir(["claims", "release", "--group", group, "--message", "evt-1", ...more]);
    const records = () => count(sql`select count(*)::int as n from window_records where consumer_group = ${group}`);

    const [older, badTime] = await Promise.all([release("--claimed-at", new Date(Date.parse(at) - 60_000).toISOString()), release("--claimed-at", "yesterday")]);
    expect(older.code).toBe(4);
    expect(older.stderr).toContain(`message evt-1 was claimed again in consumer group ${group} at ${at}`);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain("(claimedAt)");
    expect(await records()).toBe(1);

    const released = await release("--claimed-at", at);
    expect(released.code, released.stderr).toBe(0);
    expect(released.stdout).toContain(`released the claim of evt-1 in consumer group ${group} made at ${at}: its next claim is new`);
    expect(await records()).toBe(0);

    const nothing = await release("--json");
    expect(nothing.code).toBe(0);
    expect(JSON.parse(nothing.stdout)).toEqual({ consumerGroup: group, messageId: "evt-1", released: false, reason: "absent", claimedAt: null });
    const [next] = await claimMany(store().db, [{ consumerGroup: group, messageId: "evt-1" }]);
    expect(next!.decision).toBe("new");
  }, 120_000);
});
