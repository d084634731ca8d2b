import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/actor";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { changeGroupSettings } from "./change-group-settings";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const count = async (query: ReturnType<typeof sql>) => Number(((await store.db.execute(query)).rows[0] as { n: number }).n);
const save = (consumerGroup: string, intent: "change" | "create", ttlSeconds = 600) =>
  changeGroupSettings({ db: store.db, actor: SYSTEM_ACTOR, input: { consumerGroup, ttlSeconds, reason: "test" }, intent });

describe("group settings by intent: change an existing group, create a new one, or set either", () => {
  it("refuses to change a group that does not exist, and writes nothing", async () => {
    await expect(save("typo-group", "change")).rejects.toMatchObject({ status: 404, field: "consumerGroup" });
    expect(await count(sql`select count(*)::int as n from consumer_groups where id = 'typo-group'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from audit_log where target like '%typo-group%'`)).toBe(0);
  });

  it("creates a group only when asked, then changes it; creating it again is refused", async () => {
    expect((await save("made-here", "create")).created).toBe(true);
    expect((await save("made-here", "change", 1200)).group.ttlSeconds).toBe(1200);
    await expect(save("made-here", "create", 60)).rejects.toMatchObject({ status: 409 });
    expect(await count(sql`select ttl_seconds as n from consumer_groups where id = 'made-here'`)).toBe(1200);
  });

  it("changes a group known only by its claims", async () => {
    await store.db.execute(sql`insert into window_records (consumer_group, message_id, claimed_at) values ('claims-only', 'm-1', now())`);
    expect((await save("claims-only", "change")).group.ttlSeconds).toBe(600);
  });

  it("leaves the API's verb an upsert", async () => {
    const put = await changeGroupSettings({ db: store.db, actor: SYSTEM_ACTOR, input: { consumerGroup: "via-put", ttlSeconds: 60, reason: "test" } });
    expect(put.created).toBe(true);
  });
});
