import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimMany } from "@/lib/dedup/window/claim";
import { ageRecords, uniqueGroup } from "@/lib/dedup/window/test-helpers";
import { cliTestDatabase } from "./weir.fixture";

const { store, weir, count } = cliTestDatabase();

describe("weir groups", () => {
  it("previews a TTL, then saves it with a reason, audited; bad input changes nothing", async () => {
    const group = uniqueGroup("cli-group");
    await claimMany(store().db, ["a", "b", "c"].map((messageId) => ({ consumerGroup: group, messageId })));
    await ageRecords(store().db, group, 1800, ["a", "b"]);
    const set = (...args: string[]) => weir(["groups", "set", ...args]);

    const [dry, noReason, tooLong, badId] = await Promise.all([
      set(group, "--ttl", "600", "--dry-run"),
      set(group, "--ttl", "600"),
      set(group, "--ttl", "31536001", "--reason", "a year and a second"),
      set("bad id", "--ttl", "60", "--dry-run"),
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`dry run: consumer group ${group} would go from the default TTL of 86400 s to 600 s; nothing was changed`);
    expect(dry.stdout).toContain("3 records inside the window now, 1 after");
    expect(dry.stdout).toContain("2 expire at once");
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason is required");
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain("(ttlSeconds): must be at most 365 days");
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain("(consumerGroup)");
    expect(await count(sql`select count(*)::int as n from consumer_groups where id = ${group}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from audit_log where target = ${`consumer_group:${group}`}`)).toBe(0);

    const created = await set(group, "--ttl", "600", "--slide", "--reason", "retries stop after 10 min", "--actor", "ops-carol");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(
      `created consumer group ${group}: TTL 600 s, grace one TTL (600 s), sliding (was the default 86400 s); 2 records expired at once, 0 revived; audited as cli:ops-carol`,
    );
    const audited = sql`select count(*)::int as n from audit_log where target = ${`consumer_group:${group}`} and actor = 'cli:ops-carol'`;
    expect(await count(sql`${audited} and action = 'consumer_group.create' and reason = 'retries stop after 10 min'`)).toBe(1);

    const changed = await set(group, "--ttl", "3600", "--grace", "120", "--no-slide", "--reason", "longer", "--actor", "ops-carol", "--json");
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({
      group: { id: group, ttlSeconds: 3600, graceSeconds: 120, slide: false },
      created: false,
      change: { oldTtlSeconds: 600, newTtlSeconds: 3600, revived: 2, reason: "longer", actor: "cli:ops-carol" },
    });
    const row = sql`select ttl_seconds as ttl, grace_seconds as grace, slide from consumer_groups where id = ${group}`;
    expect((await store().db.execute(row)).rows).toEqual([{ ttl: 3600, grace: 120, slide: false }]);

    const same = await set(group, "--ttl", "3600", "--reason", "again");
    expect(same.stdout).toContain(`consumer group ${group} unchanged (TTL 3600 s, grace 120 s, fixed): nothing was written`);
    expect(await count(audited)).toBe(2);

    const listed = await weir(["groups", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${group}\tTTL 3600 s\tgrace 120 s\tfixed`);
    expect(listed.stderr).toContain("default TTL of 86400 s");
  }, 120_000);
});
