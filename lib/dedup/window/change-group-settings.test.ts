import { sql } from "drizzle-orm";
import { ZodError } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { ForbiddenError, ReauthenticationRequiredError } from "@/lib/errors";
import { createTestDatabase, type TestDatabase } from "@/test/test-db";
import { changeGroupSettings, previewGroupSettings } from "./change-group-settings";
import { uniqueGroup } from "./test-helpers";

let store: TestDatabase;
beforeAll(async () => {
  store = await createTestDatabase();
});

const scopedTo = (group: string): Actor => ({
  id: "token:scoped",
  role: "operator",
  via: "token",
  scopes: { services: [], consumerGroups: [group], idempotencyScopes: [] },
});

describe("the one verb that changes a group's window, whatever the door", () => {
  it("authorises on the group, guards, parses, and audits what it changed", async () => {
    const mine = uniqueGroup();
    const other = uniqueGroup();
    const actor = scopedTo(mine);
    await expect(changeGroupSettings({ db: store.db, actor, input: { consumerGroup: other, ttlSeconds: 60, reason: "not mine" } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(previewGroupSettings({ db: store.db, actor, input: { consumerGroup: other, ttlSeconds: 60 } })).rejects.toBeInstanceOf(ForbiddenError);
    const bad = await changeGroupSettings({ db: store.db, actor, input: { consumerGroup: mine, ttlSeconds: 0, reason: "zero" } }).catch((err: unknown) => err);
    expect(bad).toBeInstanceOf(ZodError);
    expect((bad as ZodError).issues[0]!.path).toEqual(["ttlSeconds"]);

    const saved = await changeGroupSettings({ db: store.db, actor, input: { consumerGroup: mine, ttlSeconds: 600, slide: true, reason: "replay" } });
    expect(saved).toMatchObject({ created: true, changed: true, group: { id: mine, ttlSeconds: 600, slide: true } });
    const audit = await store.db.execute<{ actor: string; action: string }>(
      sql`select actor, action from audit_log where target = ${`consumer_group:${mine}`} order by id`,
    );
    expect(audit.rows).toEqual([{ actor: "token:scoped", action: "consumer_group.create" }]);
    expect((await previewGroupSettings({ db: store.db, actor, input: { consumerGroup: mine, ttlSeconds: 60 } })).currentTtlSeconds).toBe(600);
  });

  it("asks a console user whose sign-in is stale to sign in again before anything else", async () => {
    const stale: Actor = { id: "ops@example.com", role: "operator", via: "session", signedInAt: new Date(Date.now() - 60 * 60_000) };
    await expect(changeGroupSettings({ db: store.db, actor: stale, input: { consumerGroup: uniqueGroup(), ttlSeconds: 60, reason: "late" } })).rejects.toBeInstanceOf(
      ReauthenticationRequiredError,
    );
  });
});
